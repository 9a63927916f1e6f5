// Command relay29 runs github.com/fiatjaf/relay29 (its khatru29 flavour, on
// khatru with the in-memory slicestore) the way an operator following the
// project's basic-khatru example would, so the harness can be pointed at an
// independent NIP-29 implementation.
//
// Configuration: roles "admin" and "moderator", group creators become
// "admin", private groups allowed; admins may do everything, moderators may
// remove users and delete events, only admins may put users. No rejection
// policies are added beyond relay29's own.
//
//	relay29 -addr 127.0.0.1:7447 [-seckey HEX]
//
// -addr defaults to $NIPCL_ADDR (port 0 picks a free port), -seckey to
// $NIPCL_RELAY_SECKEY, else a fresh key. Once listening, the relay prints
// "relay pubkey HEX" and "listening on ws://HOST:PORT" on stdout. khatru29
// serves the key in NIP-11 as "pubkey": khatru v0.8.x's NIP-11 document has
// no "self" field, so a harness has to be told the key
// (nipcl-conform run --relay-pubkey).
//
// One change to relay29 v0.5.1's behaviour, to keep the process alive: its
// OnEventSaved hook AddToPreviousChecking dereferences the event's group,
// which a 9008 (delete-group) has just removed, and the nil-pointer panic in
// khatru's per-message goroutine kills the whole relay. The hook is wrapped to
// skip events of groups that no longer exist (see guardPreviousChecking).
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
	flag.Parse()
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

	guardPreviousChecking(relay.OnEventSaved, state)

	relay.Info.Name = "relay29 interop"
	relay.Info.Description = "github.com/fiatjaf/relay29 khatru29 with an in-memory store, for nipcl-conform interop tests"

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
