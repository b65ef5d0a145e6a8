/* See jpeg_errors.h. */

#include "jpeg_errors.h"

static void fail(j_common_ptr info) {
  cjpeg_errors *errors = (cjpeg_errors *)info->err;
  errors->base.format_message(info, errors->message);
  longjmp(errors->escape, 1);
}

static void note(j_common_ptr info, int level) {
  cjpeg_errors *errors = (cjpeg_errors *)info->err;
  if (level < 0) {
    if (errors->strict) fail(info);
    errors->base.num_warnings++;
  }
}

struct jpeg_error_mgr *cjpeg_errors_init(cjpeg_errors *errors, int strict) {
  struct jpeg_error_mgr *manager = jpeg_std_error(&errors->base);
  errors->base.error_exit = fail;
  errors->base.emit_message = note;
  errors->strict = strict;
  errors->message[0] = '\0';
  return manager;
}

void cjpeg_errors_fail(cjpeg_errors *errors, const char *message) {
  snprintf(errors->message, sizeof errors->message, "%s", message);
  longjmp(errors->escape, 1);
}

void cjpeg_errors_report(const cjpeg_errors *errors, char *error, size_t error_size) {
  if (error && error_size) snprintf(error, error_size, "%s", errors->message);
}
