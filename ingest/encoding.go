package ingest

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/seedplan/seedplan/config"
)

// utf8Content is a file's content in UTF-8, without a byte order mark. A file behind a UTF-16 byte order mark —
// what Windows PowerShell's `kubectl get shoots -o yaml > shoots.yaml` writes — is converted, as kubectl converts
// what it reads: the YAML decoder alone would read such a file, but only its first document, since the separators
// between documents are looked for in bytes. Content that is not valid UTF-16 behind the mark is an error, not
// replaced characters. The UTF-8 mark (Notepad's, and PowerShell's Out-File -Encoding utf8) is dropped, as the YAML
// decoder drops it: JSON behind it would not be JSON to the JSON reader, and the YAML decoder reads a stream of
// JSON values as its first value alone.
func utf8Content(data []byte) ([]byte, error) {
	var order binary.ByteOrder
	switch {
	case bytes.HasPrefix(data, []byte(config.ByteOrderMark)):
		return data[len(config.ByteOrderMark):], nil
	case bytes.HasPrefix(data, []byte{0xff, 0xfe}):
		order = binary.LittleEndian
	case bytes.HasPrefix(data, []byte{0xfe, 0xff}):
		order = binary.BigEndian
	default:
		return data, nil
	}
	units := data[2:]
	if len(units)%2 != 0 {
		return nil, fmt.Errorf("UTF-16 (by its byte order mark) of an odd number of bytes (%d)", len(data))
	}
	out := make([]byte, 0, len(units)/2)
	for i := 0; i < len(units); i += 2 {
		r := rune(order.Uint16(units[i:]))
		if utf16.IsSurrogate(r) {
			pair := utf8.RuneError
			if i+4 <= len(units) {
				pair = utf16.DecodeRune(r, rune(order.Uint16(units[i+2:])))
			}
			if pair == utf8.RuneError {
				return nil, fmt.Errorf("UTF-16 (by its byte order mark) with a lone surrogate at byte %d", i+2)
			}
			r = pair
			i += 2
		}
		out = utf8.AppendRune(out, r)
	}
	return out, nil
}
