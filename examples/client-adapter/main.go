// Command client-adapter is the smallest adapter for `nipcl-conform client
// --client-cmd`: it reads one JSON intent a line on stdin, lets a client
// carry it out, and writes one JSON answer a line on stdout. Here the
// client is the harness's own reference client; to test your app, replace
// ref.Do with calls into your app's code and keep the loop.
//
//	go build -o /tmp/client-adapter ./examples/client-adapter
//	nipcl-conform client --client-cmd /tmp/client-adapter
//	nipcl-conform client --client-cmd "/tmp/client-adapter --fault resign-on-retry"   # exits 1
package main

import (
	"context"
	"flag"
	"fmt"
	"os"

	"github.com/nipcl/nipcl-conform/clientmode"
)

func main() {
	fault := flag.String("fault", "", "reference client fault switch (see nipcl-conform client --faults)")
	wait := flag.Duration("wait", clientmode.DefaultWait, "how long to wait for an OK before counting the attempt as Unknown")
	flag.Parse()
	if !clientmode.ValidFault(*fault) {
		fmt.Fprintf(os.Stderr, "client-adapter: unknown fault %q\n", *fault)
		os.Exit(2)
	}
	ref := &clientmode.Reference{Fault: *fault, OKWait: *wait}
	if err := clientmode.ServeAdapter(context.Background(), os.Stdin, os.Stdout, ref); err != nil {
		fmt.Fprintln(os.Stderr, "client-adapter:", err)
		os.Exit(1)
	}
}
