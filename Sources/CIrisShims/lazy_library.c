// Opening a shared library on first use, for the generated stubs of scripts/make-lazy-codec-stubs
// (lazy_codecs.c here, and the command-line tool's libcurl).
#if defined(__linux__)
#include "iris_lazy_library.h"
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

void iris_lazy_open(iris_lazy_library *library) {
    for (int i = 0; i < 6 && library->names[i] != NULL && library->handle == NULL; i++) {
        iris_lazy_open_dependencies(library->names[i]);
        library->handle = dlopen(library->names[i], RTLD_NOW | RTLD_LOCAL);
    }
}

/// The address of `symbol` in `library`, opening it first; stops the process when the library
/// or the function is missing (what needs it cannot work without it).
static void *iris_lazy_symbol(iris_lazy_library *library, void (*open)(void), const char *symbol) {
    pthread_once(&library->once, open);
    void *address = library->handle != NULL ? dlsym(library->handle, symbol) : NULL;
    if (address == NULL) {
        fprintf(stderr, "iris: cannot load %s from %s (install it with scripts/install-deps)\n", symbol, library->names[0]);
        abort();
    }
    return address;
}

/// A data race-free cache: every thread that finds the slot empty stores the same address.
void *iris_lazy_function(void **slot, iris_lazy_library *library, void (*open)(void), const char *symbol) {
    void *address = __atomic_load_n(slot, __ATOMIC_ACQUIRE);
    if (address == NULL) {
        address = iris_lazy_symbol(library, open, symbol);
        __atomic_store_n(slot, address, __ATOMIC_RELEASE);
    }
    return address;
}
#endif
