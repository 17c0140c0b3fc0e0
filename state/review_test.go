package state

import (
	"context"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/offtopic/offtopic/report"
)

// TestReviewAgain: the review a run's reports showed is what State.Review
// gives again from the run's start, after a run with nothing new too; a
// start the state does not know, or a run whose news a later run judged
// over, gives the decisions alone.
func TestReviewAgain(t *testing.T) { onCollections(t, reviewAgain) }

func reviewAgain(t *testing.T, files []string) {
	path := filepath.Join(t.TempDir(), DefaultName)
	cut := len(files) - max(1, len(files)/10)
	_, first := withState(t, path, files[:cut])
	_, grown := withState(t, path, files)
	want := grown.Review()
	if len(want.New) == 0 || len(want.Judged) == 0 || len(want.NewTimeMaps) > len(want.Judged) {
		t.Fatalf("the grown run's review: %d new captures, %d TimeMaps judged, %d new", len(want.New), len(want.Judged), len(want.NewTimeMaps))
	}
	review := func(started time.Time) (*report.Review, bool) {
		t.Helper()
		st, err := Open(path)
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		rv, news, err := st.Review(context.Background(), started)
		if err != nil {
			t.Fatal(err)
		}
		return rv, news
	}
	same := func(what string, got *report.Review) {
		t.Helper()
		if !got.Since.Equal(want.Since) || !reflect.DeepEqual(got.New, want.New) || !reflect.DeepEqual(got.Changed, want.Changed) ||
			!reflect.DeepEqual(got.Judged, want.Judged) || !reflect.DeepEqual(got.NewTimeMaps, want.NewTimeMaps) {
			t.Errorf("%s: since %v, %d new, %d changed, %d judged, %d new TimeMaps; the run's: since %v, %d, %d, %d, %d", what,
				got.Since, len(got.New), len(got.Changed), len(got.Judged), len(got.NewTimeMaps),
				want.Since, len(want.New), len(want.Changed), len(want.Judged), len(want.NewTimeMaps))
		}
	}
	if !want.Since.Equal(first.Info().Started) {
		t.Errorf("the grown run's review is since %v, the first run started %v", want.Since, first.Info().Started)
	}
	got, news := review(grown.Info().Started)
	if !news {
		t.Fatal("Review knows no news of the grown run")
	}
	same("after the grown run", got)
	// A run with nothing new judges nothing: the grown run's news stand.
	if _, again := withState(t, path, files); !again.Unchanged() {
		t.Fatal("a third run over the same files found something new")
	}
	got, news = review(grown.Info().Started)
	if !news {
		t.Fatal("after a run with nothing new, Review knows no news of the grown run")
	}
	same("after a run with nothing new", got)
	if got, news := review(grown.Info().Started.Add(time.Millisecond)); news || len(got.Judged) != 0 || !got.Since.IsZero() {
		t.Errorf("a start no run had: news %v, %d judged, since %v", news, len(got.Judged), got.Since)
	}
	// A run that judges again (a file dropped) leaves the grown run's news
	// unknown.
	withState(t, path, files[1:])
	if got, news := review(grown.Info().Started); news || len(got.New) != 0 {
		t.Errorf("after a run that judged again: news %v, %d new", news, len(got.New))
	}
}
