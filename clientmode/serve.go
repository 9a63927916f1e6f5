package clientmode

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
)

// ServeAdapter speaks the adapter protocol on in/out for the reference
// client: one JSON intent a line in, one JSON answer a line out, until in
// ends. A line that is not an intent gets an answer carrying an error.
func ServeAdapter(ctx context.Context, in io.Reader, out io.Writer, ref *Reference) error {
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	enc := json.NewEncoder(out)
	enc.SetEscapeHTML(false)
	for sc.Scan() {
		var it Intent
		if err := json.Unmarshal(sc.Bytes(), &it); err != nil {
			if err := enc.Encode(Answer{Error: "not an intent: " + err.Error()}); err != nil {
				return err
			}
			continue
		}
		if err := enc.Encode(ref.Do(ctx, it)); err != nil {
			return err
		}
	}
	return sc.Err()
}
