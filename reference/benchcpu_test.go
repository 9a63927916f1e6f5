package reference

import (
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// processCPU is this process's user+system CPU time so far.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// hostCPU is the first line of /proc/stat in clock ticks: all CPU time and
// the part of it the hypervisor gave to other guests (steal). Zero where
// /proc/stat is missing (not Linux).
type hostCPU struct{ total, steal int64 }

func readHostCPU() hostCPU {
	b, err := os.ReadFile("/proc/stat")
	if err != nil {
		return hostCPU{}
	}
	line, _, _ := strings.Cut(string(b), "\n")
	fields := strings.Fields(line)
	if len(fields) < 9 || fields[0] != "cpu" {
		return hostCPU{}
	}
	var h hostCPU
	for i, f := range fields[1:] {
		v, err := strconv.ParseInt(f, 10, 64)
		if err != nil {
			return hostCPU{}
		}
		if i >= 8 { // guest time is already counted in user
			break
		}
		h.total += v
		if i == 7 {
			h.steal = v
		}
	}
	return h
}

func (h hostCPU) since(before hostCPU) hostCPU {
	if h.total == 0 || before.total == 0 {
		return hostCPU{}
	}
	return hostCPU{total: h.total - before.total, steal: h.steal - before.steal}
}
