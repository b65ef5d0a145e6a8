// OpenSSL's libcrypto on Linux, for SHA-256 and HMAC-SHA-256 only (macOS uses CryptoKit).
// SHA256_CTX is used because it is a plain struct that Swift copies by value (a hash of a
// prefix is reused for several suffixes); OpenSSL 3 marks those functions deprecated in
// favour of EVP, whose contexts live on the heap. They stay in every OpenSSL 3 release.
#define OPENSSL_SUPPRESS_DEPRECATED 1
#include <openssl/crypto.h>
#include <openssl/hmac.h>
#include <openssl/sha.h>
