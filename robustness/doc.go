// Package robustness holds end-to-end tests of the nipcl-conform binary
// against misbehaving relays (internal/chaos): every run must end within its
// deadline, write its reports, exit non-zero and never report a broken
// behaviour as a pass; SIGINT must still leave reports behind.
package robustness
