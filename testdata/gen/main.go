// Command gen writes the sample collection in testdata/sample: a small,
// self-written collection about lighthouse preservation whose pages drift off
// topic in the ways real collections do. Run from the repository root:
//
//	go run ./testdata/gen
//
// It is deterministic: running it again writes the same bytes.
package main

import (
	"bytes"
	"compress/gzip"
	"crypto/sha1"
	"encoding/base32"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
)

type capture struct {
	uri     string
	at      string // 14-digit time
	status  int
	mime    string
	body    string
	label   int // 1 on-topic, 0 off-topic, -1 not in gold
	chunked bool
	gzipped bool
}

func page(title, body string) string {
	return `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>` + title + `</title>
<style>body{font-family:Georgia,serif}</style><script>var tracker = "lighthouse analytics keeper lamp";</script></head>
<body><nav><a href="/">Home</a> <a href="/history.html">History</a> <a href="/visit.html">Visit</a> <a href="/join.html">Join the society</a></nav>
<main>` + body + `</main><footer>Coastal Lights Preservation Society, registered charity. Contact the secretary.</footer></body></html>`
}

func paras(ps ...string) string {
	var b strings.Builder
	for _, p := range ps {
		b.WriteString("<p>" + p + "</p>\n")
	}
	return b.String()
}

var (
	home1 = page("Coastal Lights Preservation Society", `<h1>Coastal Lights Preservation Society</h1>`+paras(
		"The society looks after six historic lighthouses along the northern coast. Volunteers repaint the towers, polish the brass of the lanterns and keep the keepers' cottages open for visitors through the summer season.",
		"This year the restoration of the Gull Point lighthouse enters its second phase. The cast iron lantern gallery will be lifted off by crane, shot blasted and galvanised before it returns to the tower in the autumn.",
		"Our archive of logbooks kept by lighthouse keepers between 1840 and 1960 is now catalogued. Researchers can read how keepers trimmed the wicks, wound the clockwork of the rotating lens and recorded every storm and shipwreck.",
		"Membership supports the conservation of the towers, the Fresnel lenses and the fog signals. Members receive the quarterly newsletter and free entry to every lighthouse the society cares for."))
	home2 = page("Coastal Lights Preservation Society", `<h1>Coastal Lights Preservation Society</h1>`+paras(
		"The society looks after seven historic lighthouses along the northern coast, now including the small harbour light at Saltwick. Volunteers repaint the towers, polish the brass of the lanterns and open the keepers' cottages to visitors.",
		"The restoration of the Gull Point lighthouse is complete. The galvanised lantern gallery is back on the tower and the original Fresnel lens turns again on its mercury bath, lit for the first time since the keepers left in 1961.",
		"Our archive of logbooks kept by lighthouse keepers is now online. Read how keepers trimmed the wicks, wound the clockwork of the lens and recorded storms, fog and shipwrecks along the coast.",
		"Membership supports the conservation of the towers, the lenses and the fog signals. Members receive the quarterly newsletter and free entry to every lighthouse in our care."))
	parked = `<!DOCTYPE html><html><head><title>coastallights-society.org</title></head><body><div class="parked">
<h1>coastallights-society.org</h1><p>This domain may be for sale. Buy this domain today.</p><p>Related searches: cheap flights, car insurance, online casino, dating</p></div></body></html>`
	lens1 = page("How a Fresnel lens works", `<article><h1>How a Fresnel lens works</h1>`+paras(
		"A Fresnel lens bends the light of a single lamp into a horizontal beam that a ship can see twenty miles out at sea. Augustin Fresnel designed the lens in 1822 from rings of glass prisms set in a brass frame.",
		"The central bullseye panels refract the light while the upper and lower prisms reflect it, so almost none of the lamp's light is wasted upwards into the sky or down onto the lighthouse gallery.",
		"Lenses came in orders by size. A first order lens stands taller than a keeper and was used on major coastal lights, while small sixth order lenses marked harbour entrances and piers.",
		"Many lenses turned on a bath of mercury, driven by clockwork that the keeper wound every few hours through the night, giving each lighthouse its own pattern of flashes.")+`</article>`)
	lens2 = page("How a Fresnel lens works", `<article><h1>How a Fresnel lens works</h1>`+paras(
		"A Fresnel lens bends the light of a single lamp into a horizontal beam that a ship can see twenty miles out at sea. Augustin Fresnel designed the lens in 1822 from rings of glass prisms set in a brass frame.",
		"The central bullseye panels refract the light while the upper and lower prisms reflect it, so almost none of the lamp's light is wasted.",
		"Lenses came in orders by size. A first order lens stands taller than a keeper and was used on major coastal lights, while small sixth order lenses marked harbour entrances.",
		"Many lenses turned on a bath of mercury, driven by clockwork that the keeper wound through the night. Our Gull Point lens, restored this year, still turns this way for visitors on open days.")+`</article>`)
	spam = page("Cheap pills online", `<h1>Best prices on pills</h1>`+paras(
		"Buy cheap pills online without prescription. Discount pharmacy pills, fast shipping worldwide, best prices guaranteed for every order.",
		"Casino bonus today: play poker and slots online, win big with our casino bonus codes and free spins for new players.",
		"Replica watches and discount handbags, cheap replica designer watches shipped overnight. Order pills and replica watches now."))
	visit1 = page("Visiting the lighthouses", `<h1>Visiting the lighthouses</h1>`+paras(
		"Gull Point lighthouse opens to visitors every weekend from Easter to October. Climb the one hundred and twelve steps of the spiral staircase to the lantern gallery for a view along the whole coast.",
		"The keepers' cottages at Saltwick hold an exhibition about the lives of lighthouse keepers and their families, the supply boats and the long winter watches.",
		"Guided tours of the fog signal station run on the first Sunday of each month. Children can sound the old foghorn at noon."))
	suspended = `<!DOCTYPE html><html><head><title>Account Suspended</title></head><body><h1>Account Suspended</h1><p>This account has been suspended. Contact your hosting provider for more information.</p></body></html>`
	dberror   = page("Error", `<h1>Error establishing a database connection</h1>`)
	keepers1  = page("Life of a lighthouse keeper", `<article><h1>Life of a lighthouse keeper</h1>`+paras(
		"Lighthouse keepers lived by the lamp. Every evening at sunset the keeper lit the wick, and through the night the keepers took turns on watch in the lantern room, trimming wicks and winding the clockwork.",
		"Keepers and their families lived in cottages beside the tower. Supply boats brought oil, coal and food when the weather allowed, and in winter storms a rock lighthouse could be cut off for weeks.",
		"The keepers' logbooks in our archive record the weather, passing ships, shipwrecks and rescues. They show how the lighthouse service changed from oil lamps to electric light and finally to automation.")+`</article>`)
	keepers2 = page("Life of a lighthouse keeper", `<article><h1>Life of a lighthouse keeper</h1>`+paras(
		"Lighthouse keepers lived by the lamp. Every evening at sunset the keeper lit the wick, and through the night the keepers took turns on watch in the lantern room, trimming wicks and winding the clockwork.",
		"Keepers and their families lived in cottages beside the tower. Supply boats brought oil, coal and food when the weather allowed, and in winter storms a rock lighthouse could be cut off for weeks.",
		"The keepers' logbooks in our archive record the weather, passing ships, shipwrecks and rescues. A new exhibition at Saltwick tells the story of the last keepers before automation in 1961.")+`</article>`)
	css = "body{font-family:Georgia,serif}"
)

func main() {
	out := filepath.Join("testdata", "sample")
	if err := os.MkdirAll(out, 0o755); err != nil {
		fail(err)
	}
	crawls := [][]capture{
		{
			{uri: "http://www.coastallights-society.org/", at: "20080312101500", status: 200, mime: "text/html; charset=utf-8", body: home1, label: 1},
			{uri: "http://www.coastallights-society.org/lens.html", at: "20080312101510", status: 200, mime: "text/html", body: lens1, label: 1, chunked: true},
			{uri: "http://www.coastallights-society.org/visit.html", at: "20080312101520", status: 200, mime: "text/html; charset=utf-8", body: visit1, label: 1, gzipped: true},
			{uri: "http://www.coastallights-society.org/keepers.html", at: "20080312101530", status: 200, mime: "text/html", body: keepers1, label: 1},
			{uri: "http://www.coastallights-society.org/style.css", at: "20080312101540", status: 200, mime: "text/css", body: css, label: -1},
		},
		{
			{uri: "http://coastallights-society.org/", at: "20090415093000", status: 200, mime: "text/html; charset=utf-8", body: home2, label: 1},
			{uri: "http://www.coastallights-society.org/lens.html", at: "20090415093010", status: 200, mime: "text/html", body: lens2, label: 1},
			{uri: "http://www.coastallights-society.org/visit.html", at: "20090415093020", status: 200, mime: "text/html; charset=utf-8", body: visit1, label: 1},
			{uri: "http://www.coastallights-society.org/keepers.html", at: "20090415093030", status: 200, mime: "text/html", body: keepers2, label: 1},
			{uri: "http://www.coastallights-society.org/history.html", at: "20090415093040", status: 404, mime: "text/html", body: page("Not found", "<p>Not found</p>"), label: -1},
		},
		{
			{uri: "http://www.coastallights-society.org/", at: "20110620140000", status: 200, mime: "text/html", body: parked, label: 0},
			{uri: "https://www.coastallights-society.org/lens.html", at: "20110620140010", status: 200, mime: "text/html", body: spam, label: 0},
			{uri: "http://www.coastallights-society.org/visit.html", at: "20110620140020", status: 200, mime: "text/html", body: suspended, label: 0},
			{uri: "http://www.coastallights-society.org/keepers.html", at: "20110620140030", status: 200, mime: "text/html", body: dberror, label: 0},
		},
	}
	var gold strings.Builder
	gold.WriteString("id\tdate\tURI\tlabel\n")
	ids := map[string]int{}
	seen := map[string]string{} // digest -> uri of its first response
	for n, crawl := range crawls {
		name := fmt.Sprintf("SAMPLE-LIGHTS-%s-%05d.warc.gz", crawl[0].at, n)
		var file bytes.Buffer
		member(&file, record("warcinfo", "", crawl[0].at, "application/warc-fields", nil,
			[]byte("software: offtopic testdata/gen\r\nformat: WARC File Format 1.0\r\nisPartOf: sample lighthouse collection\r\n")))
		for _, c := range crawl {
			payload := []byte(c.body)
			digest := "sha1:" + b32(payload)
			head := fmt.Sprintf("HTTP/1.1 %d %s\r\nContent-Type: %s\r\nServer: Apache\r\n", c.status, statusText(c.status), c.mime)
			body := payload
			if c.gzipped {
				var z bytes.Buffer
				zw, _ := gzip.NewWriterLevel(&z, gzip.BestCompression)
				zw.Write(payload)
				zw.Close()
				body = z.Bytes()
				head += "Content-Encoding: gzip\r\n"
			}
			if c.chunked {
				head += "Transfer-Encoding: chunked\r\n"
				var ch bytes.Buffer
				for i := 0; i < len(body); i += 700 {
					part := body[i:min(i+700, len(body))]
					fmt.Fprintf(&ch, "%x\r\n%s\r\n", len(part), part)
				}
				ch.WriteString("0\r\n\r\n")
				body = ch.Bytes()
			} else {
				head += fmt.Sprintf("Content-Length: %d\r\n", len(body))
			}
			block := append([]byte(head+"\r\n"), body...)
			member(&file, record("request", c.uri, c.at, "application/http; msgtype=request", nil,
				[]byte("GET / HTTP/1.1\r\nUser-Agent: sample-crawler\r\n\r\n")))
			if first, ok := seen[digest]; ok && first == c.uri {
				member(&file, record("revisit", c.uri, c.at, "application/http; msgtype=response", map[string]string{
					"WARC-Payload-Digest": digest, "WARC-Profile": "http://netpreserve.org/warc/1.0/revisit/identical-payload-digest"},
					[]byte(head+"\r\n")))
			} else {
				seen[digest] = c.uri
				member(&file, record("response", c.uri, c.at, "application/http; msgtype=response", map[string]string{"WARC-Payload-Digest": digest}, block))
			}
			if c.label >= 0 {
				key := strings.TrimPrefix(strings.TrimPrefix(strings.TrimPrefix(c.uri, "https://"), "http://"), "www.")
				if ids[key] == 0 {
					ids[key] = len(ids) + 1
				}
				fmt.Fprintf(&gold, "%d\t%s\thttp://archive.example.org/sample/%s/%s\t%d\n", ids[key], c.at, c.at, c.uri, c.label)
			}
		}
		if err := os.WriteFile(filepath.Join(out, name), file.Bytes(), 0o644); err != nil {
			fail(err)
		}
	}
	if err := os.WriteFile(filepath.Join(out, "gold.tsv"), []byte(gold.String()), 0o644); err != nil {
		fail(err)
	}
}

func b32(p []byte) string {
	s := sha1.Sum(p)
	return base32.StdEncoding.EncodeToString(s[:])
}

func statusText(code int) string {
	switch code {
	case 200:
		return "OK"
	case 404:
		return "Not Found"
	}
	return "Status"
}

func record(typ, uri, at, ctype string, extra map[string]string, block []byte) []byte {
	t, err := time.Parse("20060102150405", at)
	if err != nil {
		fail(err)
	}
	id := sha1.Sum([]byte(typ + uri + at))
	var h strings.Builder
	h.WriteString("WARC/1.0\r\nWARC-Type: " + typ + "\r\n")
	fmt.Fprintf(&h, "WARC-Record-ID: <urn:uuid:%x-%x-%x-%x-%x>\r\n", id[0:4], id[4:6], id[6:8], id[8:10], id[10:16])
	h.WriteString("WARC-Date: " + t.UTC().Format(time.RFC3339) + "\r\n")
	if uri != "" {
		h.WriteString("WARC-Target-URI: " + uri + "\r\n")
	}
	for _, k := range []string{"WARC-Payload-Digest", "WARC-Profile"} {
		if v, ok := extra[k]; ok {
			h.WriteString(k + ": " + v + "\r\n")
		}
	}
	h.WriteString("Content-Type: " + ctype + "\r\n")
	fmt.Fprintf(&h, "Content-Length: %d\r\n\r\n", len(block))
	return append(append([]byte(h.String()), block...), "\r\n\r\n"...)
}

// member appends one gzip member, as crawlers write one per record.
func member(w *bytes.Buffer, rec []byte) {
	zw, _ := gzip.NewWriterLevel(w, gzip.BestCompression)
	zw.Write(rec)
	zw.Close()
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "gen:", err)
	os.Exit(1)
}
