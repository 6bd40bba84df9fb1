/*
 * Lets JDK 17 print compiled code with Debian's libhsdis0-fcml, for `jmh ... -prof perfasm`.
 *
 * That package exports only the disassembler's old entry point, decode_instructions, which reads
 * the code where it lies; JDK 17 looks for decode_instructions_virtual, which also passes the
 * code's address. For the JIT's own code the two are the same, so this forwards one to the other.
 *
 *   apt-get install libhsdis0-fcml
 *   gcc -O2 -shared -fPIC -o hsdis-amd64.so bench/tools/hsdis-shim.c -ldl
 *   cp hsdis-amd64.so "$JAVA_HOME/lib/server/"
 */
#include <dlfcn.h>
#include <stddef.h>
#include <stdint.h>

typedef void *(*event_fn)(void *, const char *, void *);
typedef int (*printf_fn)(void *, const char *, ...);
typedef void *(*decode_fn)(void *, void *, event_fn, void *, printf_fn, void *, const char *);

void *decode_instructions_virtual(uintptr_t start_va, uintptr_t end_va, unsigned char *buffer,
                                  uintptr_t length, event_fn event, void *event_stream,
                                  printf_fn print, void *print_stream, const char *options,
                                  int newline) {
    static decode_fn decode;
    (void) buffer;
    (void) length;
    (void) newline;
    if (decode == NULL) {
        void *library = dlopen("libhsdis.so.0", RTLD_NOW);
        if (library == NULL || (decode = (decode_fn) dlsym(library, "decode_instructions")) == NULL) {
            return NULL;
        }
    }
    return decode((void *) start_va, (void *) end_va, event, event_stream, print, print_stream, options);
}
