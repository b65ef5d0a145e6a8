#include "CVipsHelpers.h"

#include <gmodule.h>

int cvips_module_is_wanted(const char *name, int trusted_only) {
  static const char *const untrusted[] = {"vips-magick.", "vips-poppler.", "vips-openslide."};
  if (!g_str_has_suffix(name, "." G_MODULE_SUFFIX)) return 0;
  for (size_t i = 0; trusted_only && i < sizeof(untrusted) / sizeof(untrusted[0]); i++)
    if (g_str_has_prefix(name, untrusted[i])) return 0;
  return 1;
}

int cvips_load_modules_filtered(const char *folder, int trusted_only) {
  int loaded = 0;
  GDir *dir = g_dir_open(folder, 0, NULL);
  if (!dir) return 0;
  const char *name;
  while ((name = g_dir_read_name(dir))) {
    if (!cvips_module_is_wanted(name, trusted_only)) continue;
    char *path = g_build_filename(folder, name, NULL);
    if (g_module_open(path, G_MODULE_BIND_LAZY)) loaded++;
    g_free(path);
  }
  g_dir_close(dir);
  return loaded;
}
