package main

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/nipcl/nipcl-conform/reference"
)

// splitVariants flattens repeated and comma-separated --variant values.
func splitVariants(vals []string) []string {
	var out []string
	for _, v := range vals {
		for _, n := range strings.Split(v, ",") {
			if n = strings.TrimSpace(n); n != "" {
				out = append(out, n)
			}
		}
	}
	return out
}

// validVariants checks --variant names against the reference relay's
// catalogue of lawful switches.
func validVariants(names []string) error {
	for _, n := range names {
		if _, ok := reference.LookupVariant(n); !ok {
			return fmt.Errorf("unknown variant %q (see `nipcl-conform faults`)", n)
		}
	}
	return nil
}

// withLawful returns the --variant names plus, when seed is set, the
// lawful combination reference.Lawful draws from it for profile; a
// dimension named by --variant keeps the user's choice.
func withLawful(variants []string, seed, profile string) ([]string, error) {
	variants = splitVariants(variants)
	if err := validVariants(variants); err != nil {
		return nil, err
	}
	if seed == "" {
		return variants, nil
	}
	n, err := strconv.ParseUint(seed, 10, 64)
	if err != nil {
		return nil, fmt.Errorf("--lawful takes a seed, a whole number, got %q", seed)
	}
	taken := map[string]bool{}
	for _, v := range variants {
		vv, _ := reference.LookupVariant(v)
		taken[vv.Dimension] = true
	}
	out := append([]string(nil), variants...)
	for _, v := range reference.Lawful(n, profile) {
		if vv, _ := reference.LookupVariant(v); !taken[vv.Dimension] {
			out = append(out, v)
		}
	}
	return out, nil
}
