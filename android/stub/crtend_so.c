/* Check mode only: a stand-in for the NDK's crtend_so.o, linked last into libmontello.so.
 * Bionic's holds nothing the link needs on arm64; this one keeps the pair symmetrical and
 * marks the stack non-executable like the rest of the objects. */
typedef int montello_crtend_so_is_empty;
