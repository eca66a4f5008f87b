// Opening a lazily loaded library's dependencies leaves first (iris_lazy_open_dependencies).
//
// dlopen relocates every library it maps before it returns, looking each symbol a library needs
// up in the process's global scope and then in the scope of the library dlopen was given: that
// library and all it needs, breadth first. FFmpeg's libavformat needs 132 libraries, and Debian
// links them with BIND_NOW, so each of their ~27,000 symbol references is looked up at once,
// most of them through a list of up to 132 libraries. Opened one by one, each after the
// libraries it needs (its DT_NEEDED entries, read from its ELF file), a library is relocated
// against the short list of its own dependencies instead: the steps of symbol lookup fall
// from 1.56 million to 0.46 million for a VP9 poster, about 3 ms of its CPU time. The libraries
// loaded are the same; only the order changes. Each is opened by its soname, so the dynamic
// linker picks the file it would pick anyway (its cache, LD_LIBRARY_PATH); the walk reads the
// DT_NEEDED entries from the first file of that name in the linker's search directories.
//
// Everything here is an optimisation: a library that is not found, not readable or not an ELF
// file this process can load is skipped, and the dlopen of the library asked for loads it as it
// always did.
#if defined(__linux__)
#define _GNU_SOURCE
#include "iris_lazy_library.h"
#include <dlfcn.h>
#include <elf.h>
#include <fcntl.h>
#include <limits.h>
#include <link.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/// Bounds on the work, not on what loads (what is past them is loaded by the final dlopen, as
/// always): libraries looked at (FFmpeg's closure is 132), directories searched, DT_NEEDED
/// entries read per library, the length of a name, the bytes of a dynamic section and of the
/// span of its string table that holds the names.
enum {
    MAX_LIBRARIES = 512,
    MAX_DIRECTORIES = 16,
    MAX_NEEDED = 128,
    MAX_NAME = 256,
    MAX_DYNAMIC_BYTES = 64 * 1024,
    MAX_NAMES_BYTES = 256 * 1024,
};

typedef struct {
    /// The directories the dynamic linker searches, as it reports them (RTLD_DI_SERINFO).
    char directories[MAX_DIRECTORIES][PATH_MAX];
    int directoryCount;
    /// The names (sonames, and the file names of the libraries already loaded) seen so far: the
    /// first `loadedCount` are the libraries loaded before the walk.
    char seen[MAX_LIBRARIES][MAX_NAME];
    int seenCount;
    int loadedCount;
} iris_dependency_walk;

/// Whether `name` was seen, marking it seen if not. A name too long to keep, or one past the
/// bound, counts as seen (it is left to the final dlopen).
static int iris_seen(iris_dependency_walk *walk, const char *name) {
    if (strlen(name) >= MAX_NAME || walk->seenCount >= MAX_LIBRARIES) return 1;
    for (int i = 0; i < walk->seenCount; i++) {
        if (strcmp(walk->seen[i], name) == 0) return 1;
    }
    strcpy(walk->seen[walk->seenCount++], name);
    return 0;
}

/// Marks the libraries already loaded as seen, by their file names (a library's soname, for
/// the libraries found by one): neither they nor what they need are opened again.
static int iris_mark_loaded(struct dl_phdr_info *info, size_t size, void *context) {
    (void)size;
    const char *slash = info->dlpi_name != NULL ? strrchr(info->dlpi_name, '/') : NULL;
    if (slash != NULL && slash[1] != '\0') iris_seen(context, slash + 1);
    return 0;
}

/// The dynamic linker's search directories for a library the program needs: LD_LIBRARY_PATH,
/// the program's RUNPATH and the system's directories.
static void iris_search_directories(iris_dependency_walk *walk) {
    void *program = dlopen(NULL, RTLD_LAZY);
    if (program == NULL) return;
    Dl_serinfo size;
    if (dlinfo(program, RTLD_DI_SERINFOSIZE, &size) == 0 && size.dls_size >= sizeof(Dl_serinfo)) {
        Dl_serinfo *info = malloc(size.dls_size);
        if (info != NULL) {
            *info = size;
            if (dlinfo(program, RTLD_DI_SERINFO, info) == 0) {
                for (unsigned i = 0; i < info->dls_cnt && walk->directoryCount < MAX_DIRECTORIES; i++) {
                    const char *name = info->dls_serpath[i].dls_name;
                    if (name == NULL || strlen(name) >= PATH_MAX) continue;
                    strcpy(walk->directories[walk->directoryCount++], name);
                }
            }
            free(info);
        }
    }
    dlclose(program);
}

/// The library `soname` opened for reading: the first in the search directories, or `soname`
/// itself when it is a path. -1 when none is found.
static int iris_open_file(const iris_dependency_walk *walk, const char *soname) {
    if (strchr(soname, '/') != NULL) return open(soname, O_RDONLY | O_CLOEXEC);
    char path[PATH_MAX];
    for (int i = 0; i < walk->directoryCount; i++) {
        if (snprintf(path, sizeof path, "%s/%s", walk->directories[i], soname) >= (int)sizeof path) continue;
        int fd = open(path, O_RDONLY | O_CLOEXEC);
        if (fd >= 0) return fd;
    }
    return -1;
}

/// Reads exactly `size` bytes at `offset`.
static int iris_read(int fd, void *buffer, size_t size, uint64_t offset) {
    return offset <= (uint64_t)INT64_MAX && pread(fd, buffer, size, (off_t)offset) == (ssize_t)size;
}

/// The ELF header of the program or library this file is linked into (the linker defines it):
/// the class, data encoding and machine a library must have to load here.
extern const ElfW(Ehdr) __ehdr_start __attribute__((weak));

/// The file offset of the virtual address `address`, through the PT_LOAD segment holding it;
/// UINT64_MAX when none does.
static uint64_t iris_file_offset(const ElfW(Phdr) * headers, int count, uint64_t address) {
    for (int i = 0; i < count; i++) {
        const ElfW(Phdr) *header = &headers[i];
        if (header->p_type == PT_LOAD && address >= header->p_vaddr && address - header->p_vaddr < header->p_filesz) {
            return header->p_offset + (address - header->p_vaddr);
        }
    }
    return UINT64_MAX;
}

/// The DT_NEEDED entries of the ELF file open as `fd` (of this process's class and machine),
/// copied into `needed`; their count, 0 for a file that is not one. Three reads: the headers,
/// the dynamic section, the part of the string table that holds the names.
static int iris_needed(int fd, char needed[][MAX_NAME], int capacity) {
    union {
        ElfW(Ehdr) file;
        unsigned char bytes[4096];
    } start;
    ssize_t startLength = pread(fd, start.bytes, sizeof start.bytes, 0);
    const ElfW(Ehdr) *file = &start.file, *self = &__ehdr_start;
    if (self == NULL || startLength < (ssize_t)sizeof(ElfW(Ehdr)) || memcmp(file->e_ident, ELFMAG, SELFMAG) != 0
        || file->e_ident[EI_CLASS] != self->e_ident[EI_CLASS] || file->e_ident[EI_DATA] != self->e_ident[EI_DATA]
        || file->e_machine != self->e_machine || file->e_phentsize != sizeof(ElfW(Phdr)) || file->e_phoff % _Alignof(ElfW(Phdr)) != 0
        || file->e_phoff > (uint64_t)startLength || (uint64_t)file->e_phnum * sizeof(ElfW(Phdr)) > (uint64_t)startLength - file->e_phoff) {
        return 0;
    }
    const ElfW(Phdr) *headers = (const ElfW(Phdr) *)(start.bytes + file->e_phoff);
    const ElfW(Phdr) *dynamic = NULL;
    for (int i = 0; i < file->e_phnum; i++) {
        if (headers[i].p_type == PT_DYNAMIC) dynamic = &headers[i];
    }
    if (dynamic == NULL || dynamic->p_filesz < sizeof(ElfW(Dyn)) || dynamic->p_filesz > MAX_DYNAMIC_BYTES) return 0;
    ElfW(Dyn) *entries = malloc(dynamic->p_filesz);
    size_t entryCount = dynamic->p_filesz / sizeof(ElfW(Dyn));
    if (entries == NULL || !iris_read(fd, entries, entryCount * sizeof(ElfW(Dyn)), dynamic->p_offset)) {
        free(entries);
        return 0;
    }
    uint64_t strings = UINT64_MAX, stringsSize = 0, first = UINT64_MAX, last = 0;
    size_t end = 0;
    for (; end < entryCount && entries[end].d_tag != DT_NULL; end++) {
        if (entries[end].d_tag == DT_STRTAB) strings = iris_file_offset(headers, file->e_phnum, entries[end].d_un.d_ptr);
        if (entries[end].d_tag == DT_STRSZ) stringsSize = entries[end].d_un.d_val;
    }
    // The span of the string table from the first name to the end of the last.
    for (size_t i = 0; i < end; i++) {
        if (entries[i].d_tag != DT_NEEDED || entries[i].d_un.d_val >= stringsSize) continue;
        if (entries[i].d_un.d_val < first) first = entries[i].d_un.d_val;
        if (entries[i].d_un.d_val > last) last = entries[i].d_un.d_val;
    }
    uint64_t spanEnd = stringsSize - last > MAX_NAME ? last + MAX_NAME : stringsSize;
    char *names = NULL;
    if (strings != UINT64_MAX && first < spanEnd && spanEnd - first <= MAX_NAMES_BYTES) {
        names = malloc(spanEnd - first);
        if (names != NULL && !iris_read(fd, names, spanEnd - first, strings + first)) {
            free(names);
            names = NULL;
        }
    }
    int count = 0;
    for (size_t i = 0; names != NULL && i < end && count < capacity; i++) {
        if (entries[i].d_tag != DT_NEEDED || entries[i].d_un.d_val >= stringsSize) continue;
        const char *name = names + (entries[i].d_un.d_val - first);
        size_t room = spanEnd - entries[i].d_un.d_val, length = strnlen(name, room);
        if (length == 0 || length == room || length >= MAX_NAME) continue;
        memcpy(needed[count++], name, length + 1);
    }
    free(names);
    free(entries);
    return count;
}

/// The DT_NEEDED entries of the library `soname`, found as the walk finds files
/// (iris_open_file), in memory the caller frees; their count in `count`: 0 for a file that is
/// not an ELF library of this process's kind (or no memory), -1 when none is found.
static char (*iris_needed_of(const iris_dependency_walk *walk, const char *soname, int *count))[MAX_NAME] {
    int fd = iris_open_file(walk, soname);
    *count = -1;
    if (fd < 0) return NULL;
    char(*needed)[MAX_NAME] = malloc(sizeof(char[MAX_NEEDED][MAX_NAME]));
    *count = needed != NULL ? iris_needed(fd, needed, MAX_NEEDED) : 0;
    close(fd);
    return needed;
}

/// Whether `name` is one of the libraries loaded before the walk.
static int iris_was_loaded(const iris_dependency_walk *walk, const char *name) {
    for (int i = 0; i < walk->loadedCount; i++) {
        if (strcmp(walk->seen[i], name) == 0) return 1;
    }
    return 0;
}

/// Reports what `soname` needs, depth first, each library after the ones it needs in turn;
/// then `soname` itself unless `isRoot`. With `skipsLeaves`, a library that needs only
/// libraries loaded before the walk is not reported: its symbols are found in those (the
/// process's global scope) whichever library's dlopen loads it, so opening it alone would buy
/// nothing.
static void iris_walk(
    iris_dependency_walk *walk, const char *soname, int isRoot, int skipsLeaves, iris_library_visitor each, void *context) {
    int count;
    char(*needed)[MAX_NAME] = iris_needed_of(walk, soname, &count);
    if (count < 0) return;
    int needsUnloaded = 0;
    for (int i = 0; i < count; i++) {
        if (!iris_was_loaded(walk, needed[i])) needsUnloaded = 1;
        if (!iris_seen(walk, needed[i])) iris_walk(walk, needed[i], 0, skipsLeaves, each, context);
    }
    free(needed);
    if (!isRoot && (needsUnloaded || !skipsLeaves)) each(soname, context);
}

/// A walk with the dynamic linker's search directories, nothing seen yet.
static iris_dependency_walk *iris_start_walk(void) {
    iris_dependency_walk *walk = malloc(sizeof(iris_dependency_walk));
    if (walk == NULL) return NULL;
    walk->directoryCount = 0;
    walk->seenCount = 0;
    walk->loadedCount = 0;
    iris_search_directories(walk);
    return walk;
}

void iris_library_dependency_order(const char *name, iris_library_visitor each, void *context) {
    iris_dependency_walk *walk = iris_start_walk();
    if (walk == NULL) return;
    iris_seen(walk, name);
    iris_walk(walk, name, 1, 0, each, context);
    free(walk);
}

int iris_library_needed(const char *name, iris_library_visitor each, void *context) {
    iris_dependency_walk *walk = iris_start_walk();
    if (walk == NULL) return -1;
    int count;
    char(*needed)[MAX_NAME] = iris_needed_of(walk, name, &count);
    free(walk);
    for (int i = 0; i < count; i++) each(needed[i], context);
    free(needed);
    return count;
}

/// Opens `soname` for the process's life, as the library that needs it is. Lazily: a library
/// built without BIND_NOW binds its functions on their first call, as it does in a program that
/// links it (Debian builds FFmpeg's own with BIND_NOW; 52 of their dependencies, with some 4,500
/// function slots, without). One that fails (a library that uses symbols of one it does not
/// name) is left to the final dlopen.
static void iris_open_for_good(const char *soname, void *context) {
    (void)context;
    if (dlopen(soname, RTLD_LAZY | RTLD_LOCAL) == NULL) (void)dlerror();
}

void iris_lazy_open_dependencies(const char *name) {
    void *loaded = dlopen(name, RTLD_LAZY | RTLD_LOCAL | RTLD_NOLOAD);
    if (loaded != NULL) {
        dlclose(loaded);
        return;
    }
    (void)dlerror();
    iris_dependency_walk *walk = iris_start_walk();
    if (walk == NULL) return;
    // What is loaded already is neither walked nor opened again: what it needs is loaded too.
    dl_iterate_phdr(iris_mark_loaded, walk);
    walk->loadedCount = walk->seenCount;
    iris_seen(walk, name);
    iris_walk(walk, name, 1, 1, iris_open_for_good, NULL);
    free(walk);
}
#endif
