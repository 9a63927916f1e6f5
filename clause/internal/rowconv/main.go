// Command rowconv converts clause data written in the shapes before issue
// 40, for a branch that added some before the change and is merged after it:
//
//	go run ./clause/internal/rowconv FILE.go...       # Clause{…} rows of a table → the document constructors, in place
//	go run ./clause/internal/rowconv -anchors OLD.go  # an old anchors map (anchors_nips.go) → picks lines on stdout
//
// then merge the picks into clause/anchors.txt with
// `go run ./spec/internal/anchorgen -emit PICKS` (the headings are
// checked against the documents). A fault row in the old shape loses its
// Section and In fields by hand or with
// sed -E 's/(\{Name: \w+, )Section: "[^"]*", /\1/; s/(Clause: "[^"]*",) In: "[^"]*",/\1/'.
package main

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"os"
	"sort"
	"strconv"
	"strings"
)

func main() {
	if len(os.Args) == 3 && os.Args[1] == "-anchors" {
		if err := anchorPicks(os.Args[2]); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		return
	}
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: rowconv FILE.go... | rowconv -anchors OLD.go")
		os.Exit(2)
	}
	for _, path := range os.Args[1:] {
		if err := rewrite(path); err != nil {
			fmt.Fprintln(os.Stderr, path, err)
			os.Exit(1)
		}
	}
}

type repl struct {
	start, end int
	text       string
}

func rewrite(path string) error {
	src, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, src, parser.ParseComments)
	if err != nil {
		return err
	}
	off := func(p token.Pos) int { return fset.Position(p).Offset }
	text := func(e ast.Expr) string {
		if e == nil {
			return ""
		}
		return string(src[off(e.Pos()):off(e.End())])
	}
	var repls []repl
	ast.Inspect(f, func(n ast.Node) bool {
		cl, ok := n.(*ast.CompositeLit)
		if !ok {
			return true
		}
		at, ok := cl.Type.(*ast.ArrayType)
		if !ok || fmt.Sprint(at.Elt) != "Clause" {
			return true
		}
		for _, el := range cl.Elts {
			row := el.(*ast.CompositeLit)
			fields := map[string]ast.Expr{}
			for _, kv := range row.Elts {
				kv := kv.(*ast.KeyValueExpr)
				fields[kv.Key.(*ast.Ident).Name] = kv.Value
			}
			// comments inside the row would be lost
			for _, cg := range f.Comments {
				if cg.Pos() > row.Pos() && cg.End() < row.End() {
					panic(fmt.Sprintf("%s: comment inside row at %v", path, fset.Position(cg.Pos())))
				}
			}
			id, _ := strconv.Unquote(fields["ID"].(*ast.BasicLit).Value)
			sec, _ := strconv.Unquote(fields["Section"].(*ast.BasicLit).Value)
			if id[:strings.LastIndexByte(id, '.')] != sec {
				panic(id + " section " + sec)
			}
			used := map[string]bool{"ID": true, "Section": true, "Level": true, "Subject": true, "Testable": true, "Reason": true, "Source": true, "Ref": true, "Text": true}
			for k := range fields {
				if !used[k] {
					panic(id + " has field " + k)
				}
			}
			draft := ""
			switch {
			case strings.HasPrefix(id, "identity/"):
				draft = "identityDraft"
			case strings.HasPrefix(id, "labels/"):
				draft = "labelsDraft"
			}
			source := ""
			if e, ok := fields["Source"]; ok {
				source = text(e)
			}
			var ctor string
			switch {
			case source == "SourceContract":
				ctor = "contract"
			case source == "SourceNIP":
				ctor = id[:strings.IndexByte(id, '/')]
			case (source == "" || source == "SourceDraft") && draft != "":
				ctor = draft
			default:
				panic(id + " source " + source)
			}
			if draft != "" {
				if _, ok := fields["Ref"]; ok {
					panic(id + " draft with Ref")
				}
			}
			args := []string{strconv.Quote(id), text(fields["Level"])}
			if draft == "" {
				args = append(args, text(fields["Ref"]))
			}
			subject := text(fields["Subject"])
			testable := text(fields["Testable"])
			if testable == "" {
				testable = "false"
			}
			var mod string
			reason := ""
			if e, ok := fields["Reason"]; ok {
				reason = text(e)
			}
			switch {
			case subject == "SubjectClient":
				if testable != "false" || reason == "" {
					panic(id + " client testable")
				}
				mod = ".client(" + reason + ")"
			case subject == "SubjectRelay" && testable == "true":
				if reason != "" {
					panic(id + " testable with reason")
				}
			case subject == "SubjectRelay" && testable == "false":
				if reason == "" {
					panic(id + " untestable without reason")
				}
				mod = ".untestable(" + reason + ")"
			default:
				panic(id + " subject " + subject + " testable " + testable)
			}
			var b strings.Builder
			fmt.Fprintf(&b, "%s(%s,\n\t\t%s)", ctor, strings.Join(args, ", "), text(fields["Text"]))
			if mod != "" {
				if len(mod) < 40 {
					b.WriteString(mod)
				} else {
					b.WriteString(".\n\t\t" + mod[1:])
				}
			}
			repls = append(repls, repl{off(row.Pos()), off(row.End()), b.String()})
		}
		return false
	})
	sort.Slice(repls, func(i, j int) bool { return repls[i].start > repls[j].start })
	out := src
	for _, r := range repls {
		out = append(append(append([]byte(nil), out[:r.start]...), r.text...), out[r.end:]...)
	}
	if bytes.Equal(out, src) {
		return fmt.Errorf("no Clause{…} rows")
	}
	formatted, err := format.Source(out)
	if err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "%s: %d rows\n", path, len(repls))
	return os.WriteFile(path, formatted, 0o644)
}

// anchorPicks prints the anchors of an old Go anchors map
// (map[string][]Anchor{"ID": {{Doc, "heading", "hash"}, …}}) as
// clause/anchors.txt lines, which anchorgen -emit takes as picks.
func anchorPicks(path string) error {
	src, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, src, 0)
	if err != nil {
		return err
	}
	var werr error
	ast.Inspect(f, func(n ast.Node) bool {
		m, ok := n.(*ast.CompositeLit)
		if !ok {
			return true
		}
		if _, ok := m.Type.(*ast.MapType); !ok {
			return true
		}
		for _, el := range m.Elts {
			kv := el.(*ast.KeyValueExpr)
			id, _ := strconv.Unquote(kv.Key.(*ast.BasicLit).Value)
			heading, hashes := "", []string(nil)
			flush := func() {
				if len(hashes) > 0 {
					fmt.Printf("%s %s § %s\n", id, strings.Join(hashes, " "), heading)
				}
				hashes = nil
			}
			for _, a := range kv.Value.(*ast.CompositeLit).Elts {
				fields := a.(*ast.CompositeLit).Elts
				if len(fields) != 3 {
					werr = fmt.Errorf("%s: anchor of %s is not {Doc, heading, hash}", fset.Position(a.Pos()), id)
					return false
				}
				h, _ := strconv.Unquote(fields[1].(*ast.BasicLit).Value)
				x, _ := strconv.Unquote(fields[2].(*ast.BasicLit).Value)
				if h != heading {
					flush()
					heading = h
				}
				hashes = append(hashes, x)
			}
			flush()
		}
		return false
	})
	return werr
}
