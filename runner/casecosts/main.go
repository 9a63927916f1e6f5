// Command casecosts turns results.json files of runs into the case cost
// table runner/casecost.json: each case's longest duration in ms.
//
//	go run ./runner/casecosts RESULTS.json... > runner/casecost.json
package main

import (
	"encoding/json"
	"fmt"
	"os"

	"github.com/nipcl/nipcl-conform/reports"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: casecosts RESULTS.json... > runner/casecost.json")
		os.Exit(2)
	}
	costs := map[string]int64{}
	for _, path := range os.Args[1:] {
		r, err := reports.ReadJSON(path)
		if err != nil {
			fmt.Fprintf(os.Stderr, "casecosts: %v\n", err)
			os.Exit(1)
		}
		for _, c := range r.Cases {
			costs[c.ID] = max(costs[c.ID], c.DurationMS)
		}
	}
	out, err := json.MarshalIndent(costs, "", "  ")
	if err != nil {
		fmt.Fprintf(os.Stderr, "casecosts: %v\n", err)
		os.Exit(1)
	}
	fmt.Println(string(out))
}
