package nip29

import (
	. "github.com/onsi/gomega"

	"github.com/nipcl/nipcl-conform/internal/text"
	"github.com/nipcl/nipcl-conform/suites/framework"
)

// nip11DocumentSpecs are the cases of nip11/document.
func nip11DocumentSpecs() []framework.Spec {
	return []framework.Spec{
		{Case: framework.NewCase("base/nip11/1", framework.MUST,
			"The NIP-11 document is served for Accept: application/nostr+json; its self field, when present, is a 64-hex key.",
			"nip11/document.1", "nip11/document.2").
			WithReading("NIP-29 names self as the key of group state; a document without self but with pubkey is read as naming that key, with a note."),
			Run: func(t *framework.T) {
				t.Checking("nip11/document.1")
				info := t.Env.Info
				t.Expect(info).NotTo(BeNil(), "the NIP-11 document was read at setup")
				if info.Self != "" && !text.IsHex64(info.Self) {
					t.Violates("nip11/document.2", "NIP-11 (nip11/document.2): self must be a 32-byte lowercase hex key, got %q", info.Self)
				}
				if info.Self == "" {
					t.Note("NIP-11 has no self; the harness checks group state against %s (from --relay-pubkey or the document's pubkey)", t.Env.RelayPubKey)
				}
			}},
	}
}
