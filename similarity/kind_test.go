package similarity

import (
	"testing"

	"github.com/offtopic/offtopic/extract"
)

func TestCueKind(t *testing.T) {
	tests := []struct {
		name, title, text, host string
		want                    Kind
	}{
		{"parked en", "harbour.org", "harbour.org is for sale! Related searches: Cheap Flights Car Insurance", "www.harbour.org", KindParked},
		{"parked title alone is not enough", "harbour.org", "Cheap Flights Car Insurance Dating", "other.org", ""},
		{"parked by title and listing", "harbour.org", "Sponsored listings Cheap Flights", "harbour.org", KindParked},
		{"parked: title and text name the domain", "harbour.org - Welcome", "Inquire about acquiring harbour.org today", "www.harbour.org", KindParked},
		{"a site's name in its title names no domain", "Harbour Society", "Welcome to the harbour society of the old town", "harbour.org", ""},
		{"parked de", "", "Diese Domain steht zum Verkauf. Ähnliche Suchanfragen", "", KindParked},
		{"suspended", "Account Suspended", "This account has been suspended.", "", KindSuspended},
		{"suspended ru", "", "Аккаунт приостановлен. Обратитесь в службу поддержки хостинга.", "", KindSuspended},
		{"db error", "Database Error", "Error establishing a database connection", "", KindError},
		{"mysql warning", "", "Warning: mysql_connect(): Too many connections in /home/db.php on line 12", "", KindError},
		{"db error es", "", "Error al establecer una conexión con la base de datos", "", KindError},
		{"soft 404", "404 Not Found", "The page you are looking for does not exist on this server.", "", KindNotFound},
		{"soft 404 ja", "", "お探しのページは見つかりません", "", KindNotFound},
		{"soft 404 ar", "", "عذرا، الصفحة المطلوبة غير موجودة", "", KindNotFound},
		{"soft 404 hy", "", "Էջը գտնված չէ: Ձեր ուզած էջը հնարավոր չէ գտնել", "", KindNotFound},
		{"construction", "Coming soon", "Our new website is coming soon. Please check back later.", "", KindMaintenance},
		{"maintenance zh", "", "系统维护中，敬请期待", "", KindMaintenance},
		{"login", "Log in", "Username Password Remember me Forgot your password? Register", "", KindLogin},
		{"login ko", "", "로그인 아이디 비밀번호 비밀번호 찾기", "", KindLogin},
		{"not found th", "", "ขออภัย ไม่พบหน้าที่คุณต้องการ", "", KindNotFound},
		{"db error ro", "", "Eroare la stabilirea conexiunii cu baza de date", "", KindError},
		{"maintenance fi", "Huoltokatko", "Sivusto on rakenteilla, tulossa pian", "", KindMaintenance},
		{"moved es", "", "¡Nos mudamos! Ahora estamos en www.example.org.ar", "", KindRedirected},
		{"a word in a menu names nothing", "", "Home News Login Contact", "", ""},
		{"an article names nothing", "Election results", "The minister said the vote would be held in May after a long campaign.", "", ""},
		{"whole words only", "", "Notfoundation and databases of suspendedness", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, cues := cueKind(tt.title, tt.text, tt.host)
			if got != tt.want {
				t.Errorf("cueKind = %q (cues %q), want %q", got, cues, tt.want)
			}
			if got != "" && len(cues) == 0 {
				t.Error("a kind without the cues that named it")
			}
		})
	}
}

func TestSpamTermShare(t *testing.T) {
	voc := newVocab()
	share := func(text string) float64 {
		terms := extract.Terms(text, "en")
		tf, _ := voc.counts(terms, len(terms))
		got := spamTermShare(tf, voc.terms)
		n := 0 // each occurrence looked at
		for _, term := range terms {
			if isSpamTerm(term) {
				n++
			}
		}
		if want := float64(n) / float64(len(terms)); got != want {
			t.Errorf("%q: share %v over distinct terms, %v over occurrences", text, got, want)
		}
		return got
	}
	if s := share("Cheap viagra pills online pharmacy, best casino bonus and payday loans, replica watches outlet, casino casino"); s < spamShare {
		t.Errorf("spam's share %.2f < %.2f", s, spamShare)
	}
	if s := share("The chancellor said the budget would cut taxes for families and raise spending on schools, " +
		"while the opposition called the plan a discount on the future"); s >= spamShare {
		t.Errorf("news's share %.2f >= %.2f", s, spamShare)
	}
	if s := spamTermShare(sparse{}, nil); s != 0 {
		t.Errorf("no terms: share %v", s)
	}
}

func TestKindNamesRoundTrip(t *testing.T) {
	for _, k := range Kinds() {
		for _, s := range []string{string(k), k.Label()} {
			if got, ok := ParseKind(s); !ok || got != k {
				t.Errorf("ParseKind(%q) = %q, %v", s, got, ok)
			}
		}
	}
	for name, want := range map[string]Kind{"dberror": KindError, "soft404": KindNotFound, "construction": KindMaintenance,
		"repurposed": KindReplaced, "parked": KindParked, "on": ""} {
		if got := ScenarioKind(name); got != want {
			t.Errorf("ScenarioKind(%q) = %q, want %q", name, got, want)
		}
	}
}
