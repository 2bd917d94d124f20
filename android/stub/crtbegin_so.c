/* Check mode only: a stand-in for the NDK's crtbegin_so.o, linked first into libmontello.so.
 * Like Bionic's, it gives the library its own __dso_handle (the key __cxa_atexit registers
 * the library's static destructors under) and runs them when the library is unloaded. */
extern void __cxa_finalize(void *);

__attribute__((visibility("hidden"))) void *__dso_handle = &__dso_handle;

__attribute__((visibility("hidden"), destructor)) static void montello_on_dlclose(void) {
    __cxa_finalize(&__dso_handle);
}
