package fault

import (
	"fmt"
	"regexp"
	"strings"
)

// setting is a setting's name between braces in a Settingf format: "{OutOfCore}".
var setting = regexp.MustCompile(`\{([A-Z][A-Za-z0-9]*)\}`)

// settingError is an input error about settings of a call, its message made from a
// format that names the settings between braces.
type settingError struct {
	format string
	args   []any
	err    error // fmt.Errorf(format, args...): what the error wraps
	msg    string
}

// Settingf returns an error of the input (ErrInput) about settings of a call, which
// format names between braces by their Go names, the fields of the configuration that
// hold them: "{OutOfCore} reads a data file; %q is not one". Its message names them so
// ("OutOfCore reads a data file; …"); a front end with its own names for the settings
// (aucopt's flags) prints Render's instead. The format and args are fmt.Errorf's (%w
// included); only the format's braces name settings.
func Settingf(format string, args ...any) error {
	e := &settingError{format: format, args: args, err: fmt.Errorf(format, args...)}
	e.msg = e.render(func(name string) string { return name })
	return e
}

func (e *settingError) Error() string { return e.msg }

func (e *settingError) Unwrap() []error {
	var out []error
	switch u := e.err.(type) {
	case interface{ Unwrap() error }:
		out = append(out, u.Unwrap())
	case interface{ Unwrap() []error }:
		out = append(out, u.Unwrap()...)
	}
	return append(out, ErrInput)
}

// render is e's message with each setting named by name.
func (e *settingError) render(name func(string) string) string {
	format := setting.ReplaceAllStringFunc(e.format, func(m string) string {
		return strings.ReplaceAll(name(m[1:len(m)-1]), "%", "%%")
	})
	return fmt.Errorf(format, e.args...).Error()
}

// Render returns err's message with the settings that Settingf errors in it name
// (their Go names) named by name instead: aucopt passes the flag of each
// ("OutOfCore" → "--out-of-core"), so that its messages name what a user can change.
// Other text is err's own.
func Render(err error, name func(setting string) string) string {
	if err == nil {
		return ""
	}
	msg := err.Error()
	var walk func(error)
	walk = func(e error) {
		if e == nil {
			return
		}
		if se, ok := e.(*settingError); ok {
			msg = strings.Replace(msg, se.Error(), se.render(name), 1)
		}
		switch u := e.(type) {
		case interface{ Unwrap() error }:
			walk(u.Unwrap())
		case interface{ Unwrap() []error }:
			for _, w := range u.Unwrap() {
				walk(w)
			}
		}
	}
	walk(err)
	return msg
}
