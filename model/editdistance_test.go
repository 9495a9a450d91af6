package model

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/agnivade/levenshtein"
)

// The bounded edit distance is the Levenshtein distance exactly up to its limit and "beyond" (limit+1) past it,
// for any strings: checked against the full computation on random strings of a small alphabet, where distances are
// small enough to fall on both sides of small limits, and of multi-byte runes, half of them beginning and ending
// alike.
func TestBoundedEditDistanceIsExactUpToItsLimit(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	alphabets := []string{"ab", "abc-", "eu-central1", "äöü€𝄞a"}
	random := func(alphabet []rune) string {
		s := make([]rune, rng.IntN(40))
		for i := range s {
			s[i] = alphabet[rng.IntN(len(alphabet))]
		}
		return string(s)
	}
	for i := range 20000 {
		alphabet := []rune(alphabets[i%len(alphabets)])
		a, b, limit := random(alphabet), random(alphabet), rng.IntN(30)
		if i%2 == 0 {
			prefix, suffix := random(alphabet), random(alphabet)
			a, b = prefix+a+suffix, prefix+b+suffix
		}
		want := min(levenshtein.ComputeDistance(a, b), limit+1)
		if got := boundedEditDistance([]rune(a), []rune(b), limit); got != want {
			t.Fatalf("boundedEditDistance(%q, %q, %d) = %d, want %d", a, b, limit, got, want)
		}
	}
	// At the fallback's own limit: strings of up to 1,600 runes, repetitive as a long region name may be, against a
	// copy with up to 2,500 random edits, so that distances fall on both sides of 500.
	for range 200 {
		alphabet := []rune(alphabets[rng.IntN(len(alphabets))])
		a := []rune(random(alphabet) + strings.Repeat(random(alphabet), 10+rng.IntN(30)))
		b := slices.Clone(a)
		for range rng.IntN(2500) {
			i := rng.IntN(len(b) + 1)
			switch rng.IntN(3) {
			case 0:
				b = slices.Insert(b, i, alphabet[rng.IntN(len(alphabet))])
			case 1:
				if i < len(b) {
					b = slices.Delete(b, i, i+1)
				}
			default:
				if i < len(b) {
					b[i] = alphabet[rng.IntN(len(alphabet))]
				}
			}
		}
		want := min(levenshtein.ComputeDistance(string(a), string(b)), fallbackEdits+1)
		if got := boundedEditDistance(a, b, fallbackEdits); got != want {
			t.Fatalf("boundedEditDistance of %d and %d runes, limit %d = %d, want %d", len(a), len(b), fallbackEdits, got, want)
		}
	}
}

// Regions a garden may hold, of any length, get the fallback's distance exactly as far as it can be chosen, and
// one beyond it otherwise, without the full computation of a long pair.
func TestLevenshteinDistanceOfLongRegions(t *testing.T) {
	long := strings.Repeat("x", 100_000)
	for _, tc := range []struct {
		name        string
		seed, shoot string
		want        int // 0: any distance beyond levenshteinLimit
	}{
		{"a 300-character seed region against a short one", strings.Repeat("r", 300), "eu-nl-1", 2 * 300},
		{"one edit between two long regions", long + "-1", long + "-2", 2},
		{"long regions 500 edits apart: the farthest the fallback chooses", long + strings.Repeat("a", 500), long, 1000},
		{"long regions 501 edits apart", long + strings.Repeat("a", 501), long, 0},
		{"a long region against a short one", long, "eu-nl-1", 0},
		{"two long regions of nothing alike", long, strings.Repeat("y", 100_000), 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := LevenshteinDistance(tc.seed, tc.shoot)
			if tc.want == 0 && got <= levenshteinLimit || tc.want != 0 && got != tc.want {
				t.Errorf("LevenshteinDistance = %d, want %d (0: beyond %d)", got, tc.want, levenshteinLimit)
			}
		})
	}
}

// A seed whose region is too far from the shoot's for the fallback to choose is refused by the strategy, which
// says how far only as far as it counts.
func TestStrategyAdmitsNoSeedBeyondTheFallback(t *testing.T) {
	for _, tc := range []struct {
		region, want string
	}{
		{strings.Repeat("r", 300), ""},
		{strings.Repeat("r", 600), "strategy MinimalDistance: region distance more than 1000 is beyond what the scheduler ever chooses"},
	} {
		seed := testSeed("far", inRegion("aws", tc.region))
		req, _ := requestFor(testShoot("s"), Options{Strategy: MinimalDistance}, seed)
		if got, err := req.StrategyAdmits(seed); err != nil || got != tc.want {
			t.Errorf("a region of %d characters: StrategyAdmits = %q, %v; want %q", len(tc.region), got, err, tc.want)
		}
	}
}

// BenchmarkLevenshteinDistanceOfLongRegions is the fallback in a garden on two regions of a megabyte (about what
// an object may hold): one edit apart, what the cut of their common beginning and end makes cheap, and 256 edits
// spread over one letter repeated, the kind of pair that costs most, as every diagonal runs on to the next edit.
// The full computation would take 10^12 steps.
// Run: go test ./model -run '^$' -bench LevenshteinDistanceOfLongRegions
func BenchmarkLevenshteinDistanceOfLongRegions(b *testing.B) {
	long := strings.Repeat("x", 1<<20)
	spread := []byte(long)
	for i := 0; i < len(spread); i += 4096 {
		spread[i] = 'y'
	}
	for _, tc := range []struct {
		name        string
		seed, shoot string
		want        int
	}{
		{"one-edit", long + "-1", long + "-2", 2},
		{"edits-throughout", long, string(spread), 2 * 256},
	} {
		b.Run(tc.name, func(b *testing.B) {
			for b.Loop() {
				if d := LevenshteinDistance(tc.seed, tc.shoot); d != tc.want {
					b.Fatalf("distance %d, want %d", d, tc.want)
				}
			}
		})
	}
}
