// jpeglib.h needs stdio.h (FILE, size_t) included before it.
#include <stdio.h>
#include <stddef.h>
#include <jpeglib.h>
