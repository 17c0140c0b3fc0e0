package extract

import (
	"math/bits"
	"strings"

	"github.com/kljensen/snowball/english"
	"github.com/kljensen/snowball/french"
	"github.com/kljensen/snowball/hungarian"
	"github.com/kljensen/snowball/norwegian"
	"github.com/kljensen/snowball/russian"
	"github.com/kljensen/snowball/spanish"
	"github.com/kljensen/snowball/swedish"
)

// language is what the package knows of one language: its stop words and,
// where kljensen/snowball has one, its stemmer.
type language struct {
	code string
	stop map[string]bool
	// isStop is the Snowball stop-word test, nil where there is none.
	isStop func(string) bool
	// stem is the Snowball stemmer, nil where there is none.
	stem func(word string, stemStopWords bool) string
}

// stopWords are the most frequent function words of each language, used both
// to detect the language and to drop stop words from Terms (together with
// the Snowball list where there is one).
var stopWords = map[string]string{
	"en": `a about above after again against all also am an and any are as at be because been before being
		below between both but by can could did do does doing down during each few for from further had has have
		having he her here hers herself him himself his how i if in into is it its itself just me more most my
		myself no nor not now of off on once only or other our ours ourselves out over own said same she should
		so some such than that the their theirs them themselves then there these they this those through to too
		under until up very was we were what when where which while who whom why will with would you your yours
		yourself yourselves`,
	"fr": `à au aux avec ce ces c cette d dans de des du elle elles en et eux il ils je j l la le les leur leurs
		lui ma mais me même mes moi mon m n ne nos notre nous on ou où par pas pour qu que qui s sa se ses son
		sur ta te tes toi ton tu un une vos votre vous y été être avoir ai as avons avez ont était sont est
		fait comme plus aussi sans sous entre cet ici très`,
	"es": `a al algo algunos ante antes como con contra cual cuando de del desde donde durante e el él ella
		ellas ellos en entre era es esa esas ese eso esos esta está están estas este esto estos fue fueron ha
		había han hasta hay la las le les lo los más me mi mis mucho muy nada ni no nos nosotros o otra otros
		para pero poco por porque que quien se sea según ser si sí sido sin sobre son su sus también te tiene
		todo todos tu tus un una uno unos y ya yo`,
	"de": `aber alle allem allen aller als also am an auch auf aus bei beim bin bis bist da damit dann das dass
		daß dem den denn der des dich die dies diese diesem diesen dieser dir doch dort du durch ein eine einem
		einen einer eines er es etwas für gegen hat hatte hier ich ihm ihn ihnen ihr ihre im in ist ja jetzt
		kann kein keine mich mir mit nach nicht noch nun nur ob oder ohne sehr sein seine sich sie sind so
		über um und uns unter vom von vor war waren was weil wenn werden wie wieder wir wird wurde zu zum zur
		zwischen`,
	"it": `a ad al alla alle allo agli ai anche che chi ci come con contro cui da dal dalla dalle dei del della
		delle dello degli di e è ed era erano essere gli ha hanno ho i il in io la le lei li lo loro lui ma
		mi mio molto ne nei nel nella nelle noi non nostro o per perché più quale quando quella quelle quello
		questa queste questo se sei si sia siamo sono sta stato su sua sue sui sul sulla suo suoi ti tra tu
		tutti tutto un una uno vi voi`,
	"pt": `a à ao aos as às até com como da das de dela dele deles depois do dos e é ela elas ele eles em entre
		era essa essas esse esses esta está estão estas este estes eu foi foram há isso isto já lhe mais mas
		me mesmo meu minha muito na nas não nem no nos nós o os ou para pela pelas pelo pelos por qual quando
		que quem se sem ser seu seus sua suas também te tem têm teu tu um uma umas uns você vocês`,
	"nl": `aan al als bij dan dat de der deze die dit doch door dus een en er ge geen had heb hebben heeft hem
		het hier hij hoe hun ik in is ja je kan kon maar me meer men met mij mijn na naar niet niets nog nu
		of om omdat ons ook op over reeds te tegen toch toen tot u uit uw van veel voor want waren was wat
		we wel werd wezen wie wij wil worden zal ze zelf zich zij zijn zo zonder zou`,
	"ru": `и в во не что он на я с со как а то все она так его но да ты к у же вы за бы по только ее мне было
		вот от меня еще нет о из ему теперь когда даже ну вдруг ли если уже или ни быть был него до вас нибудь
		опять уж вам ведь там потом себя ничего ей может они тут где есть надо ней для мы тебя их чем была сам
		чтоб без будто чего раз тоже себе под будет ж тогда кто этот того потому этого какой совсем ним здесь
		этом один почти мой тем чтобы нее были куда зачем всех никогда можно при наконец два об другой хоть
		после над больше тот через эти нас про всего них какая много разве три эту моя впрочем хорошо свою
		этой перед иногда лучше чуть том нельзя такой им более всегда конечно всю между это также`,
	"sv": `och det att i en jag hon som han på den med var sig för så till är men ett om hade de av icke mig
		du henne då sin nu har inte hans honom skulle hennes där min man ej vid kunde något från ut när efter
		upp vi dem vara vad över än dig kan sina här ha mot alla under någon eller allt mycket sedan ju denna
		själv detta åt utan varit hur ingen mitt ni bli blev oss din dessa några deras blir mina samma vilken
		er sådan vår blivit dess inom mellan sådant varför varje vilka ditt vem vilket sitta sådana vart dina
		vars vårt våra ert era vilkas`,
	"no": `og i jeg det at en et den til er som på de med han av ikke ikkje der så var meg seg men ett har om
		vi min mitt ha hadde hun nå over da ved fra du ut sin dem oss opp man kan hans hvor eller hva skal selv
		sjøl her alle vil bli ble blei blitt kunne inn når være kom noen noe ville dere deres kun ja etter ned
		skulle denne for deg si sine sitt mot å meget hvorfor dette disse uten hvordan ingen din ditt blir samme
		hvilken hvilke sånn inni mellom vår hver hvem vors hvis både bare enn fordi før mange også slik vært`,
	"hu": `a az egy és hogy nem is meg de ha már csak el van volt vagy mint még ki most azt ez ezt mi mit minden
		nagy sok után által alatt amely amelyek amikor amit ami arra azok azonban azt azután be benne között
		egyes egyik egész ellen első előtt fel ahol akkor alapján ezek ezen ezért így ill illetve itt jó kell
		kellett keresztül le lehet lesz lett maga majd mellett mely melyek miatt mikor mindig mintha nagyon
		nincs olyan ott pedig persze rá saját szerint számára tehát továbbá úgy újabb vagyis valamint volna
		voltak vannak viszont`,
}

// languages is built once from stopWords and never modified afterwards.
var languages = buildLanguages()

// languageOrder fixes the order in which ties are broken.
var languageOrder = []string{"en", "fr", "es", "de", "it", "pt", "nl", "ru", "sv", "no", "hu"}

// stopIndex maps each stop word to the set of languages (bit i for
// languageOrder[i]) that list it, so detection looks each token up once.
var stopIndex = buildStopIndex()

func buildStopIndex() map[string]uint32 {
	idx := make(map[string]uint32)
	for i, code := range languageOrder {
		for w := range languages[code].stop {
			idx[w] |= 1 << i
		}
	}
	return idx
}

func buildLanguages() map[string]*language {
	m := make(map[string]*language, len(stopWords))
	for code, words := range stopWords {
		l := &language{code: code, stop: make(map[string]bool)}
		for _, w := range strings.Fields(words) {
			l.stop[w] = true
		}
		m[code] = l
	}
	m["en"].isStop, m["en"].stem = english.IsStopWord, english.Stem
	m["fr"].isStop, m["fr"].stem = french.IsStopWord, french.Stem
	m["es"].isStop, m["es"].stem = spanish.IsStopWord, spanish.Stem
	m["ru"].isStop, m["ru"].stem = russian.IsStopWord, russian.Stem
	m["sv"].isStop, m["sv"].stem = swedish.IsStopWord, swedish.Stem
	m["no"].isStop, m["no"].stem = norwegian.IsStopWord, norwegian.Stem
	m["hu"].isStop, m["hu"].stem = hungarian.IsStopWord, hungarian.Stem
	return m
}

// Languages lists the ISO 639-1 codes DetectLanguage can return, and for
// which Terms removes stop words.
func Languages() []string { return append([]string(nil), languageOrder...) }

// HasStemmer reports whether Terms stems words of the language code (those
// kljensen/snowball supports: en, fr, es, ru, sv, no, hu).
func HasStemmer(code string) bool {
	l := languages[code]
	return l != nil && l.stem != nil
}

// Detection thresholds: the winning language needs at least minStopHits
// stop-word occurrences, stop words of that language must be at least
// minStopShare of the tokens, and it must beat the runner-up by
// minStopMargin (ratio of hits).
const (
	minStopHits   = 3
	minStopShare  = 0.08
	minStopMargin = 1.25
	// detectTokens caps how many tokens detection reads.
	detectTokens = 2000
)

// DetectLanguage guesses the language of text from the frequency of each
// language's stop words. hint is a language tag such as <html lang> gives
// ("en-GB"): it decides when the text is too short or ambiguous, and wins
// near-ties. The result is an ISO 639-1 code of Languages(), or "" when
// unsure.
func DetectLanguage(text, hint string) string {
	toks := tokenize(text, detectTokens)
	return detectTokensLang(toks, hint)
}

// detectTokensLang is DetectLanguage over already tokenized, lower-cased text.
func detectTokensLang(toks []string, hint string) string {
	hint = primaryTag(hint)
	if languages[hint] == nil {
		hint = ""
	}
	if len(toks) > detectTokens {
		toks = toks[:detectTokens]
	}
	var counts [32]int
	for _, t := range toks {
		for set := stopIndex[t]; set != 0; set &= set - 1 {
			counts[bits.TrailingZeros32(set)]++
		}
	}
	hits := make(map[string]int, len(languageOrder))
	for i, code := range languageOrder {
		hits[code] = counts[i]
	}
	best, second := "", ""
	for _, code := range languageOrder {
		switch {
		case best == "" || hits[code] > hits[best]:
			best, second = code, best
		case second == "" || hits[code] > hits[second]:
			second = code
		}
	}
	b, s := float64(hits[best]), float64(hits[second])
	confident := hits[best] >= minStopHits &&
		b >= minStopShare*float64(len(toks)) &&
		b >= minStopMargin*s
	if hint != "" {
		h := float64(hits[hint])
		if h >= b || (confident && h >= b/minStopMargin) || (!confident && h > 0 && h*minStopMargin >= b) {
			return hint
		}
	}
	if confident {
		return best
	}
	return ""
}

// primaryTag returns the lower-cased primary subtag of a language tag
// ("en-GB" → "en"), mapping Norwegian Bokmål and Nynorsk to "no".
func primaryTag(tag string) string {
	tag = strings.ToLower(strings.TrimSpace(tag))
	if i := strings.IndexAny(tag, "-_"); i >= 0 {
		tag = tag[:i]
	}
	switch tag {
	case "nb", "nn":
		return "no"
	}
	return tag
}
