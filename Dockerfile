# nipcl-conform harness CLI image, FROM scratch.
#
# The binary is built on the host first (no base image is pulled):
#
#   CGO_ENABLED=0 go build -o nipcl-conform ./cmd/nipcl-conform
#   docker build -t nipcl-conform .
#
# or scripts/build-images.sh. Example (relay on the host's loopback):
#
#   docker run --rm --network host -v "$PWD/report:/report" nipcl-conform \
#     run --target ws://127.0.0.1:7447 --profile labels --report-dir /report
FROM scratch
COPY nipcl-conform /nipcl-conform
WORKDIR /tmp
WORKDIR /
ENTRYPOINT ["/nipcl-conform"]
CMD ["--help"]
