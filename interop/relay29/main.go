// Command relay29 runs github.com/fiatjaf/relay29 (its khatru29 flavour, on
// khatru with the in-memory slicestore), so the harness can be pointed at an
// independent NIP-29 implementation. -deploy picks one of two deployments:
//
//   - "wrapper" (the default): roles "admin" and "moderator", group creators
//     become "admin", private groups allowed; admins may do everything,
//     moderators may remove users and delete events, only admins may put
//     users. No rejection policies beyond relay29's own and no HTTP routes:
//     relay29 alone, as the NIPs see it.
//
//   - "basic-khatru": relay29 v0.5.1's examples/basic-khatru as people deploy
//     it: the same roles, an AllowAction that lets any member holding a role
//     put users (admins everything, moderators remove users and delete
//     events), khatru's RejectEvent policies PreventLargeTags(64),
//     PreventTooManyIndexableTags(6, [9005], nil), RestrictToSpecifiedKinds(9,
//     10, 11, 12, 1111, 30023, 31922, 31923, 9802, 9000-9007, 9021, 9022),
//     PreventTimestampsInThePast(60s) and PreventTimestampsInTheFuture(30s),
//     and a "/" HTTP route that answers 200 "nothing to see here, you must use
//     a nip-29 powered client" at every path that is neither a WebSocket
//     upgrade nor a NIP-11 request. Only the listen address, the key and the
//     process plumbing below differ from the example.
//
// Usage:
//
//	relay29 -addr 127.0.0.1:7447 [-seckey HEX] [-deploy wrapper|basic-khatru]
//
// -addr defaults to $NIPCL_ADDR (port 0 picks a free port), -seckey to
// $NIPCL_RELAY_SECKEY, else a fresh key. Once listening, the relay prints
// "relay pubkey HEX" and "listening on ws://HOST:PORT" on stdout. khatru29
// serves the key in NIP-11 as "pubkey": khatru v0.8.x's NIP-11 document has
// no "self" field, so a harness has to be told the key
// (nipcl-conform run --relay-pubkey).
//
// One change to relay29 v0.5.1's behaviour in both deployments, to keep the
// process alive: its OnEventSaved hook AddToPreviousChecking dereferences the
// event's group, which a 9008 (delete-group) has just removed, and the
// nil-pointer panic in khatru's per-message goroutine kills the whole relay.
// The hook is wrapped to skip events of groups that no longer exist (see
// guardPreviousChecking). basic-khatru refuses kind 9008 (it is not in the
// example's kind list), so the guard never acts there.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log"
	"net"
	"net/http"
	"os"
	"os/signal"
	"reflect"
	"syscall"
	"time"

	"github.com/fiatjaf/eventstore/slicestore"
	"github.com/fiatjaf/khatru"
	"github.com/fiatjaf/khatru/policies"
	"github.com/fiatjaf/relay29"
	"github.com/fiatjaf/relay29/khatru29"
	"github.com/nbd-wtf/go-nostr"
	"github.com/nbd-wtf/go-nostr/nip29"
)

var (
	adminRole     = &nip29.Role{Name: "admin", Description: "may do everything in the group"}
	moderatorRole = &nip29.Role{Name: "moderator", Description: "may remove users and delete events"}
)

func main() {
	addr := flag.String("addr", os.Getenv("NIPCL_ADDR"), "listen address host:port (default $NIPCL_ADDR)")
	secKey := flag.String("seckey", os.Getenv("NIPCL_RELAY_SECKEY"), "relay secret key, 64 hex (default $NIPCL_RELAY_SECKEY, else a fresh key)")
	deploy := flag.String("deploy", deployWrapper, "deployment: "+deployWrapper+" (relay29 alone) or "+deployBasicKhatru+" (relay29's examples/basic-khatru: policies and HTTP route)")
	flag.Parse()
	if *deploy != deployWrapper && *deploy != deployBasicKhatru {
		log.Fatalf("relay29: -deploy %q: want %s or %s", *deploy, deployWrapper, deployBasicKhatru)
	}
	if *addr == "" {
		log.Fatal("relay29: no listen address: pass -addr host:port or set NIPCL_ADDR")
	}
	if *secKey == "" {
		*secKey = nostr.GeneratePrivateKey()
	}
	if !nostr.IsValid32ByteHex(*secKey) {
		log.Fatal("relay29: -seckey must be 64 lowercase hex digits")
	}
	pubKey, err := nostr.GetPublicKey(*secKey)
	if err != nil {
		log.Fatalf("relay29: bad secret key: %v", err)
	}

	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		log.Fatalf("relay29: listen: %v", err)
	}

	db := &slicestore.SliceStore{}
	if err := db.Init(); err != nil {
		log.Fatalf("relay29: store: %v", err)
	}

	relay, state := khatru29.Init(relay29.Options{
		Domain:                  ln.Addr().String(),
		DB:                      db,
		SecretKey:               *secKey,
		DefaultRoles:            []*nip29.Role{adminRole, moderatorRole},
		GroupCreatorDefaultRole: adminRole,
	})
	state.AllowPrivateGroups = true
	if *deploy == deployBasicKhatru {
		configureBasicKhatru(relay, state)
	} else {
		configureWrapper(relay, state)
	}

	guardPreviousChecking(relay.OnEventSaved, state)

	srv := &http.Server{Handler: relay, ReadHeaderTimeout: 10 * time.Second}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	go func() {
		<-ctx.Done()
		sctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		_ = srv.Shutdown(sctx)
	}()

	fmt.Printf("relay pubkey %s\nlistening on ws://%s\n", pubKey, ln.Addr())
	if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		log.Fatalf("relay29: serve: %v", err)
	}
}

// The deployments -deploy selects.
const (
	deployWrapper     = "wrapper"
	deployBasicKhatru = "basic-khatru"
)

// configureWrapper sets the default deployment's permissions: admins may do
// everything, moderators may remove users and delete events; nothing else.
func configureWrapper(relay *khatru.Relay, state *relay29.State) {
	state.AllowAction = func(ctx context.Context, group nip29.Group, role *nip29.Role, action relay29.Action) bool {
		switch role {
		case adminRole:
			return true
		case moderatorRole:
			switch action.(type) {
			case relay29.RemoveUser, relay29.DeleteEvent:
				return true
			}
		}
		return false
	}
	relay.Info.Name = "relay29 interop"
	relay.Info.Description = "github.com/fiatjaf/relay29 khatru29 with an in-memory store, for nipcl-conform interop tests"
}

// configureBasicKhatru configures relay and state as relay29 v0.5.1's
// examples/basic-khatru/main.go does: its AllowAction, its five RejectEvent
// policies and its catch-all "/" HTTP route (relay29 calls AllowAction once
// per role the author holds, so "anyone" there is any member with a role).
func configureBasicKhatru(relay *khatru.Relay, state *relay29.State) {
	state.AllowAction = func(ctx context.Context, group nip29.Group, role *nip29.Role, action relay29.Action) bool {
		if _, ok := action.(relay29.PutUser); ok {
			return true
		}
		switch role {
		case adminRole:
			return true
		case moderatorRole:
			switch action.(type) {
			case relay29.RemoveUser, relay29.DeleteEvent:
				return true
			}
		}
		return false
	}
	relay.Info.Name = "relay29 interop (basic-khatru)"
	relay.Info.Description = "github.com/fiatjaf/relay29 configured as its examples/basic-khatru, for nipcl-conform interop tests"
	relay.RejectEvent = append(relay.RejectEvent,
		policies.PreventLargeTags(64),
		policies.PreventTooManyIndexableTags(6, []int{9005}, nil),
		policies.RestrictToSpecifiedKinds(
			9, 10, 11, 12, 1111,
			30023, 31922, 31923, 9802,
			9000, 9001, 9002, 9003, 9004, 9005, 9006, 9007,
			9021, 9022,
		),
		policies.PreventTimestampsInThePast(60*time.Second),
		policies.PreventTimestampsInTheFuture(30*time.Second),
	)
	relay.Router().HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, "nothing to see here, you must use a nip-29 powered client")
	})
}

// guardPreviousChecking replaces relay29's AddToPreviousChecking hook in
// hooks with one that skips events whose group is gone (the 9008 that deleted
// it): unguarded, relay29 v0.5.1 panics there and the relay process exits.
func guardPreviousChecking(hooks []func(context.Context, *nostr.Event), state *relay29.State) {
	target := reflect.ValueOf(state.AddToPreviousChecking).Pointer()
	found := 0
	for i, h := range hooks {
		if reflect.ValueOf(h).Pointer() != target {
			continue
		}
		found++
		hooks[i] = func(ctx context.Context, ev *nostr.Event) {
			if state.GetGroupFromEvent(ev) == nil {
				return
			}
			state.AddToPreviousChecking(ctx, ev)
		}
	}
	if found != 1 {
		log.Fatalf("relay29: expected one AddToPreviousChecking hook in OnEventSaved, found %d", found)
	}
}
