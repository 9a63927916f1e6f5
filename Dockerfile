# nipcl-conform harness CLI image, FROM scratch.
#
# The binary is built on the host first (no base image is pulled), and the
# host's CA bundle is copied beside it, so that wss:// targets with public
# certificates work from the image (--ca-cert FILE adds a private CA):
#
#   CGO_ENABLED=0 go build -o nipcl-conform ./cmd/nipcl-conform
#   cp /etc/ssl/certs/ca-certificates.crt .
#   docker build -t nipcl-conform .
#
# or scripts/build-images.sh (or run --dockerfile .), which stage both.
# Example (relay on the host's loopback):
#
#   docker run --rm --network host -v "$PWD/report:/report" nipcl-conform \
#     run --target ws://127.0.0.1:7447 --profile labels --report-dir /report
FROM scratch
COPY nipcl-conform /nipcl-conform
COPY ca-certificates.crt /etc/ssl/certs/ca-certificates.crt
WORKDIR /tmp
WORKDIR /
ENTRYPOINT ["/nipcl-conform"]
CMD ["--help"]
