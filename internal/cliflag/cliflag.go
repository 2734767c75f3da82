// Package cliflag names the library's settings by the flags of aucopt's commands
// (aucopt, aucopt-beam), which share their flags' names: the library's errors name a
// setting by its Go name (fault.Settingf), and a command prints Message's text.
package cliflag

import (
	"strings"
	"unicode"

	"github.com/aucopt/aucopt/engine/fault"
)

// Message is err's message with the library's settings named by the flags that set
// them (fault.Render, Of).
func Message(err error) string { return fault.Render(err, Of) }

// Of is the flag that sets a library setting: "--" and the setting's Go name in lower
// case, its words joined by hyphens ("OutOfCore" → "--out-of-core"), but for the
// settings whose flag is named otherwise (renamed).
func Of(setting string) string {
	if f, ok := renamed[setting]; ok {
		return f
	}
	var b strings.Builder
	b.WriteString("--")
	for i, r := range setting {
		if unicode.IsUpper(r) {
			if i > 0 {
				b.WriteByte('-')
			}
			r = unicode.ToLower(r)
		}
		b.WriteRune(r)
	}
	return b.String()
}

// renamed are the flags not named after their setting.
var renamed = map[string]string{
	"Indices": "--zero-based", // data.Options.Indices: IndexOne, IndexZero, IndexAuto
}
