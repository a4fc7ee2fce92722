package shell

import (
	"testing"

	"github.com/godbus/dbus/v5"
)

// The portal's color-scheme, as xdg-desktop-portal answers Settings.Read
// (a variant in a variant) and as the spec writes it (one variant).
func TestColorScheme(t *testing.T) {
	cases := []struct {
		v        dbus.Variant
		dark, ok bool
	}{
		{dbus.MakeVariant(dbus.MakeVariant(uint32(1))), true, true},
		{dbus.MakeVariant(uint32(1)), true, true},
		{dbus.MakeVariant(dbus.MakeVariant(uint32(2))), false, true},
		{dbus.MakeVariant(dbus.MakeVariant(uint32(0))), false, false},
		{dbus.MakeVariant("dark"), false, false},
	}
	for _, c := range cases {
		if dark, ok := colorScheme(c.v); dark != c.dark || ok != c.ok {
			t.Errorf("%v: dark %v ok %v, want %v %v", c.v, dark, ok, c.dark, c.ok)
		}
	}
}
