#!/usr/bin/env bash
# The archiver for aarch64-apple-darwin build scripts (see zigcc-macos.sh).
exec "$KAIROS_ZIG_VENV/bin/python" -m ziglang ar "$@"
