//go:build amd64 && !noasm && !purego

package asm

import (
	"strings"
	"testing"

	"github.com/klauspost/cpuid/v2"
)

func TestCheckCPU(t *testing.T) {
	for _, c := range []struct {
		name    string
		lacks   []cpuid.FeatureID
		wantErr string
	}{
		{"all", nil, ""},
		{"noFMA", []cpuid.FeatureID{cpuid.FMA3}, "asm: CPU lacks FMA3"},
		{"noAVX2", []cpuid.FeatureID{cpuid.AVX2}, "asm: CPU lacks AVX2"},
		{"none", []cpuid.FeatureID{cpuid.AVX, cpuid.AVX2, cpuid.FMA3}, "asm: CPU lacks AVX and AVX2 and FMA3"},
	} {
		has := func(ids ...cpuid.FeatureID) bool {
			for _, id := range ids {
				for _, l := range c.lacks {
					if id == l {
						return false
					}
				}
			}
			return true
		}
		err := checkCPU(has)
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != c.wantErr {
			t.Errorf("%s: checkCPU = %q, want %q", c.name, got, c.wantErr)
		}
	}
}

func TestEnvNoAVX512(t *testing.T) {
	if checkCPU(cpuid.CPU.Supports) != nil {
		t.Skip("CPU lacks AVX2 or FMA3")
	}
	t.Setenv(EnvNoAVX512, "1")
	b, err := New()
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if b.avx512 || b.Detail() != "AVX2+FMA" {
		t.Errorf("with %s=1: avx512 = %t, Detail() = %q, want false and AVX2+FMA", EnvNoAVX512, b.avx512, b.Detail())
	}
	t.Setenv(EnvNoAVX512, "")
	b2, err := New()
	if err != nil {
		t.Fatal(err)
	}
	defer b2.Close()
	if want := cpuid.CPU.Supports(cpuid.AVX512F); b2.avx512 != want || strings.Contains(b2.Detail(), "AVX-512") != want {
		t.Errorf("without %s: avx512 = %t, Detail() = %q, want avx512 = %t", EnvNoAVX512, b2.avx512, b2.Detail(), want)
	}
}
