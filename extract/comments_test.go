package extract

import (
	"math/rand/v2"
	"strings"
	"testing"
)

func TestShownComments(t *testing.T) {
	tests := []struct{ name, page, want string }{
		{"a timeline in a code comment", `<div id="bar">Site</div><code class="hidden_elem" id="u_0_1"><!-- <div class="post"><p>Our statement today</p></div> --></code>`,
			`<div id="bar">Site</div><code class="hidden_elem" id="u_0_1"> <div class="post"><p>Our statement today</p></div> </code>`},
		{"spaces and case", "<CODE>\n <!--<p>a</p>-->\n</CODE>", "<CODE>\n <p>a</p>\n</CODE>"},
		{"a comment of words, not markup, stays", `<code><!-- TODO fix --></code>`, `<code><!-- TODO fix --></code>`},
		{"a comment outside code stays", `<div><!-- <p>old menu</p> --></div>`, `<div><!-- <p>old menu</p> --></div>`},
		{"code with more than the comment stays", `<code>x = 1 <!-- <b>note</b> --></code>`, `<code>x = 1 <!-- <b>note</b> --></code>`},
		{"unclosed", `<code><!-- <p>a</p>`, `<code><!-- <p>a</p>`},
		{"another element's name", `<code-block><!-- <p>a</p> --></code-block>`, `<code-block><!-- <p>a</p> --></code-block>`},
		{"markup that would swallow the page stays a comment", `<code><!-- <textarea> --></code><p>after</p>`, `<code><!-- <textarea> --></code><p>after</p>`},
		{"a script closed is markup", `<code><!-- <div>x</div><script>go()</script> --></code>`, `<code> <div>x</div><script>go()</script> </code>`},
	}
	for _, tt := range tests {
		if got := string(shownComments([]byte(tt.page))); got != tt.want {
			t.Errorf("%s: got %q, want %q", tt.name, got, tt.want)
		}
	}
	// The page as a reader sees it: the timeline's words, not a blank page.
	post := strings.Repeat("Protesters gathered in the square again today to demand the release of the journalists. ", 10)
	page := `<html><head><title>Timeline</title></head><body><div id="blueBar"><a href="/">Site</a></div>` +
		`<code class="hidden_elem"><!-- <div class="userContent"><p>` + post + `</p></div> --></code></body></html>`
	doc := mustExtract(t, htmlHeader(), page)
	if doc.ContentWords < 100 || !strings.Contains(doc.Text, "journalists") {
		t.Errorf("timeline page: %d words of content, text %q", doc.ContentWords, doc.Text)
	}
}

// TestCodeBeforeComment: the first look of shownComments passes over no
// page that the whole reading would change, on random pages of code tags
// (of any case, with '<' and '>' in attributes), comments, spaces and
// other markup.
func TestCodeBeforeComment(t *testing.T) {
	pieces := []string{"<code>", "<CODE>", "<Code class=x>", "!", "<!", "<!-", "-", `<code title="a>b">`, `<code title="a<b">`, "<code-x>", "</code>", "</CODE>",
		"<!--", "-->", "<!-- <p>a</p> -->", "<!-- <p>a</p> --></code>", "<!--<b>x</b>-->\n</CODE>", " ", "\n", "\t", "<p>", "</p>", "<div>",
		"text", ">", "<", "<textarea>", "<b>x</b>"}
	rng := rand.New(rand.NewPCG(23, 24))
	changed := 0
	for range 50000 {
		page := joinRandom(rng, pieces, 10)
		want := string(showComments([]byte(page)))
		if want != page {
			changed++
		}
		if got, want := indexComment([]byte(page)), strings.Index(page, "<!--"); got != want {
			t.Fatalf("%q: indexComment %d, want %d", page, got, want)
		}
		if got := string(shownComments([]byte(page))); got != want {
			t.Fatalf("%q: %q, the whole reading %q", page, got, want)
		}
	}
	if changed < 2000 {
		t.Errorf("%d pages of 50,000 changed", changed)
	}
}
