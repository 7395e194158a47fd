#!/usr/bin/env bash
# A C compiler for aarch64-apple-darwin build scripts (ring, for rustls) on Linux: zig's clang,
# which ships macOS libc headers that Debian's compilers lack. cc-rs passes flags meant for
# Apple's clang (-arch, -mmacosx-version-min, --target); zig takes the target from -target.
# Used by scripts/macos-check.sh as CC_aarch64_apple_darwin; KAIROS_ZIG_VENV names the venv.
args=()
skip=0
for a in "$@"; do
  if [ "$skip" = 1 ]; then
    skip=0
    continue
  fi
  case "$a" in
    -arch) skip=1 ;;
    -mmacosx-version-min=* | --target=* | -gfull) ;;
    *) args+=("$a") ;;
  esac
done
exec "$KAIROS_ZIG_VENV/bin/python" -m ziglang cc -target aarch64-macos "${args[@]}"
