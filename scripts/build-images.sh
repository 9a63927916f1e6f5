#!/usr/bin/env bash
# Builds the static nipcl-conform binary once and both FROM scratch images:
#   the reference relay image (reference/Dockerfile, ENTRYPOINT nipcl-conform serve)
#   the harness CLI image     (Dockerfile,           ENTRYPOINT nipcl-conform)
# No base image is pulled: the binary is built on the host (CGO_ENABLED=0) and
# staged into temporary build contexts, so the source tree stays clean.
#
# Usage: scripts/build-images.sh [REFERENCE_TAG [HARNESS_TAG]]
# Tags default to $NIPCL_REFERENCE_IMAGE / $NIPCL_HARNESS_IMAGE, else
# nipcl-reference:latest and nipcl-conform:latest.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
ref_tag="${1:-${NIPCL_REFERENCE_IMAGE:-nipcl-reference:latest}}"
harness_tag="${2:-${NIPCL_HARNESS_IMAGE:-nipcl-conform:latest}}"

command -v go >/dev/null || { echo "build-images: go not on PATH" >&2; exit 1; }
command -v docker >/dev/null || { echo "build-images: docker not on PATH" >&2; exit 1; }

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# Without the buildx plugin (Debian's docker.io) use the legacy builder,
# which needs nothing else for a FROM scratch image.
if [ -z "${DOCKER_BUILDKIT:-}" ] && ! docker buildx version >/dev/null 2>&1; then
  export DOCKER_BUILDKIT=0
fi

start=$SECONDS
echo "build-images: building static binary"
(cd "$root" && CGO_ENABLED=0 go build -trimpath -o "$work/nipcl-conform" ./cmd/nipcl-conform)
echo "build-images: binary built in $((SECONDS - start))s"

# The harness image trusts the CAs this machine trusts (wss:// targets):
# the host's bundle, or $SSL_CERT_FILE, is copied into its build context.
ca_bundle="${SSL_CERT_FILE:-}"
if [ -z "$ca_bundle" ]; then
  for f in /etc/ssl/certs/ca-certificates.crt /etc/pki/tls/certs/ca-bundle.crt /etc/ssl/ca-bundle.pem /etc/ssl/cert.pem; do
    if [ -f "$f" ]; then ca_bundle="$f"; break; fi
  done
fi
[ -n "$ca_bundle" ] && [ -f "$ca_bundle" ] || { echo "build-images: no CA bundle found; set SSL_CERT_FILE to one" >&2; exit 1; }

build() { # build TAG DOCKERFILE
  local tag="$1" dockerfile="$2" ctx
  ctx="$(mktemp -d "$work/ctx.XXXXXX")"
  cp "$dockerfile" "$ctx/Dockerfile"
  cp "$work/nipcl-conform" "$ctx/nipcl-conform"
  if grep -q ca-certificates.crt "$dockerfile"; then cp "$ca_bundle" "$ctx/ca-certificates.crt"; fi
  local t=$SECONDS
  if ! docker build -q -t "$tag" "$ctx" >"$ctx.log" 2>&1; then
    echo "build-images: docker build of $tag failed:" >&2
    cat "$ctx.log" >&2
    return 1
  fi
  echo "build-images: built $tag in $((SECONDS - t))s"
}

build "$ref_tag" "$root/reference/Dockerfile"
build "$harness_tag" "$root/Dockerfile"
echo "build-images: done in $((SECONDS - start))s"
