/* libjpeg's error handling for the decoder and the encoder. libjpeg reports errors by
 * calling error_exit, which must not return: it jumps back to the setjmp of whichever call
 * was running, with the message kept here. */
#ifndef THUMBFORGE_JPEG_ERRORS_H
#define THUMBFORGE_JPEG_ERRORS_H

#include <setjmp.h>
#include <stddef.h>
#include <stdio.h>

#include <jpeglib.h>

typedef struct {
  struct jpeg_error_mgr base;
  jmp_buf escape;
  int strict; /* warnings (corrupt data worked around) are errors */
  int status; /* a cjpeg_status for the caller, set before failing (decoder only) */
  char message[JMSG_LENGTH_MAX];
} cjpeg_errors;

/* Makes `errors` the error manager to hand to libjpeg: errors jump to `errors->escape`,
 * warnings are counted (nothing is printed) or, when `strict`, are errors. */
struct jpeg_error_mgr *cjpeg_errors_init(cjpeg_errors *errors, int strict);
/* Ends the call that is running with `message` as its error. */
__attribute__((noreturn)) void cjpeg_errors_fail(cjpeg_errors *errors, const char *message);
/* Copies the message of the error that ended a call into `error` (`error_size` bytes). */
void cjpeg_errors_report(const cjpeg_errors *errors, char *error, size_t error_size);

#endif
