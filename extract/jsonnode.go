package extract

import (
	"encoding/json"
	"errors"
	"io"
	"strings"
)

// jsonNode: JSON decoded with its objects' keys in order, for the
// embedded-data harvest.

// JSON value kinds of jsonNode.
const (
	jsonOther  = iota // number, boolean, null
	jsonString        // str
	jsonArray         // kids
	jsonObject        // keys and kids
)

// jsonNode is a decoded JSON value that keeps the order of its objects'
// keys, which encoding/json's maps lose: embedded text is read in the
// page's order.
type jsonNode struct {
	kind int
	str  string
	keys []string
	kids []*jsonNode
}

// get returns the value of key in an object, nil if absent.
func (v *jsonNode) get(key string) *jsonNode {
	for i, k := range v.keys {
		if k == key {
			return v.kids[i]
		}
	}
	return nil
}

// strings returns the strings of a JSON-LD value: a string, a
// {"@value": string} object, or an array of those.
func (v *jsonNode) strings() []string {
	switch v.kind {
	case jsonString:
		return []string{v.str}
	case jsonObject:
		if s := v.get("@value"); s != nil && s.kind == jsonString {
			return []string{s.str}
		}
	case jsonArray:
		var out []string
		for _, c := range v.kids {
			if c.kind == jsonString {
				out = append(out, c.str)
			} else if c.kind == jsonObject {
				out = append(out, c.strings()...)
			}
		}
		return out
	}
	return nil
}

var (
	jsonScalar      = &jsonNode{kind: jsonOther}
	errJSONTooLarge = errors.New("JSON too large")
	errJSONCut      = errors.New("JSON cut short")
)

// decodeOrdered decodes the first JSON value of s with encoding/json's
// tokenizer, keeping key order; at most maxJSONTokens tokens.
func decodeOrdered(s string) (*jsonNode, error) {
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	var root *jsonNode
	var stack []*jsonNode
	for n := 0; ; n++ {
		if n >= maxJSONTokens {
			return nil, errJSONTooLarge
		}
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		var top *jsonNode
		if len(stack) > 0 {
			top = stack[len(stack)-1]
		}
		if d, ok := tok.(json.Delim); ok && (d == '}' || d == ']') {
			stack = stack[:len(stack)-1]
			if len(stack) == 0 {
				break
			}
			continue
		}
		if top != nil && top.kind == jsonObject && len(top.keys) == len(top.kids) {
			k, _ := tok.(string)
			top.keys = append(top.keys, k)
			continue
		}
		v := jsonScalar
		switch t := tok.(type) {
		case json.Delim:
			if t == '{' {
				v = &jsonNode{kind: jsonObject}
			} else {
				v = &jsonNode{kind: jsonArray}
			}
		case string:
			v = &jsonNode{kind: jsonString, str: t}
		}
		if top != nil {
			top.kids = append(top.kids, v)
		} else {
			root = v
		}
		if v.kind == jsonObject || v.kind == jsonArray {
			stack = append(stack, v)
		} else if top == nil {
			break
		}
	}
	if root == nil || len(stack) > 0 {
		return nil, errJSONCut
	}
	return root, nil
}
