package similarity

// cuePhrases are what message pages say they are, per kind, one string per
// language ("|" between phrases; matched case-insensitively on whole words,
// inside runs for scripts written without spaces).
//
// Where they come from: no maintained multilingual list of such pages'
// wording exists as data we can depend on (no Go module carries one, and
// translation catalogues cannot be vendored here), so these are written by
// hand, following the wording the software that makes these pages ships in
// each language: Apache httpd's multilingual error documents (docs/error:
// "Object not found!", "Objekt nicht gefunden!", "¡Objeto no localizado!"),
// WordPress core's messages as translate.wordpress.org has them ("Error
// establishing a database connection", "Briefly unavailable for scheduled
// maintenance", "Oops! That page can't be found", "Log In", "Username or
// Email Address"), cPanel's and Plesk's suspended-account pages, nginx and
// IIS status pages, and the parking and placeholder pages of Sedo, GoDaddy, Bodis,
// ParkingCrew, web hosts ("It works!", "no web site at this address") and
// the registrars of the languages listed. Languages: en, de,
// fr, es, it, pt, nl, sv, pl, cs, hu, tr, ru, uk, el, ar, fa, he, hi, zh,
// ja, ko, id, vi, and for most kinds ro, bg, da, no, fi, ca, th, bn, ta (hy
// and am: not found). A language missing here still gets its kind from structure
// (blank, spam's vocabulary, drift, replacement) and from the words its
// error pages share with English (404, MySQL, SQLSTATE).
var cuePhrases = []struct {
	kind    Kind
	phrases []string
}{
	{KindParked, []string{
		"domain is for sale|this domain may be for sale|domain for sale|domain name for sale|buy this domain|" +
			"this domain is parked|parked free|parked domain|parked by|domain parking|related searches|" +
			"sponsored listings|sponsored links|make an offer|inquire about this domain|is for sale|" +
			"this web page is parked|get this domain|the domain owner|domain may be available|this domain name|" +
			"premium domain|related links|top searches|popular categories|this domain has been registered|" +
			"no web site at this address|no website at this address|default web page|default page|it works|" +
			"index of|web hosting|hosted by|future home of|send your offer|submit an offer|current registrant|" +
			"current owner|financing available|escrow|available for purchase|lease to own|buy now|sponsored results|" +
			"interested in this domain|domain name",
		"domain steht zum verkauf|diese domain kaufen|domain kaufen|diese domain ist geparkt|domain zu verkaufen|" +
			"gesponserte links|ähnliche suchanfragen|verwandte suchbegriffe|diese domain steht|steht zum verkauf|" +
			"zu verkaufen|domain erwerben",
		"ce domaine est à vendre|nom de domaine à vendre|domaine à vendre|acheter ce domaine|recherches associées|" +
			"liens commerciaux|liens sponsorisés|ce domaine est parqué|est à vendre|contactez le propriétaire|" +
			"faire une offre",
		"este dominio está en venta|dominio en venta|comprar este dominio|búsquedas relacionadas|enlaces patrocinados|" +
			"dominio aparcado|dominio estacionado|se vende este dominio|el dominio ya se encuentra registrado|" +
			"dominio registrado|está en venta|se vende|haga una oferta",
		"questo dominio è in vendita|dominio in vendita|acquista questo dominio|ricerche correlate|link sponsorizzati|" +
			"è in vendita|fai un'offerta",
		"este domínio está à venda|domínio à venda|comprar este domínio|pesquisas relacionadas|links patrocinados|" +
			"está à venda|faça uma oferta",
		"dit domein is te koop|domein te koop|deze domeinnaam is te koop|gerelateerde zoekopdrachten|gesponsorde links|" +
			"is te koop|doe een bod",
		"denna domän är till salu|domänen är till salu|köp denna domän|relaterade sökningar|sponsrade länkar",
		"domena na sprzedaż|ta domena jest na sprzedaż|kup tę domenę|powiązane wyszukiwania|linki sponsorowane",
		"tato doména je na prodej|doména na prodej|koupit tuto doménu|související vyhledávání",
		"ez a domain eladó|a domain eladó|eladó domain|kapcsolódó keresések|szponzorált linkek",
		"bu alan adı satılıktır|satılık alan adı|alan adı satılık|bu alan adını satın al|ilgili aramalar|sponsorlu bağlantılar",
		"домен продается|домен продаётся|этот домен продается|купить домен|купить этот домен|домен припаркован|" +
			"похожие запросы|спонсорские ссылки",
		"домен продається|цей домен продається|купити домен",
		"το domain πωλείται|πωλείται το domain",
		"هذا النطاق للبيع|النطاق للبيع|الدومين للبيع|اشتر هذا النطاق|عمليات البحث ذات الصلة|روابط برعاية",
		"این دامنه فروشی است|دامنه فروشی|خرید این دامنه|جستجوهای مرتبط",
		"הדומיין למכירה|דומיין למכירה",
		"यह डोमेन बिक्री के लिए है|डोमेन बिक्री के लिए",
		"域名出售|此域名出售|该域名正在出售|本域名出售|域名转让|相关搜索|赞助商链接",
		"このドメインは販売中|ドメイン販売|このドメインを購入|関連検索|スポンサーリンク",
		"이 도메인은 판매|도메인 판매|도메인 구입|관련 검색|스폰서 링크",
		"domain ini dijual|beli domain ini|pencarian terkait|tautan bersponsor",
		"tên miền này đang được rao bán|tên miền đang bán|mua tên miền này|tìm kiếm liên quan",
		"acest domeniu este de vânzare|domeniu de vânzare|cumpără acest domeniu",
		"този домейн се продава|домейнът се продава|купете този домейн",
		"dette domæne er til salg|domænet er til salg|køb dette domæne",
		"dette domenet er til salgs|domenet er til salgs|kjøp dette domenet",
		"tämä verkkotunnus on myynnissä|verkkotunnus myytävänä|osta tämä verkkotunnus",
		"aquest domini està en venda|domini en venda",
		"โดเมนนี้ขาย|ขายโดเมน|โดเมนนี้มีไว้ขาย",
		"এই ডোমেইনটি বিক্রয়ের জন্য|ডোমেইন বিক্রয়",
		"இந்த டொமைன் விற்பனைக்கு|டொமைன் விற்பனைக்கு",
	}},
	{KindSuspended, []string{
		"account suspended|account has been suspended|this account has been suspended|site suspended|" +
			"website suspended|has been suspended|suspended page|bandwidth limit exceeded|this site has been disabled|" +
			"site has been deactivated|account has been disabled|this account is suspended|suspended account|" +
			"site is suspended|hosting account|suspended",
		"konto gesperrt|account gesperrt|dieser account wurde gesperrt|webseite gesperrt|wurde gesperrt|wurde deaktiviert|" +
			"konto wurde deaktiviert",
		"compte suspendu|a été suspendu|site suspendu|compte a été suspendu|hébergement suspendu",
		"cuenta suspendida|ha sido suspendida|sitio suspendido|esta cuenta ha sido suspendida",
		"account sospeso|è stato sospeso|sito sospeso",
		"conta suspensa|foi suspensa|site suspenso",
		"account opgeschort|is opgeschort|website is opgeschort|account geblokkeerd",
		"kontot är avstängt|kontot har stängts av",
		"konto zawieszone|konto zostało zawieszone|strona zablokowana",
		"účet byl pozastaven|pozastavený účet",
		"fiók felfüggesztve|felfüggesztették|a tárhely fel van függesztve",
		"hesap askıya alındı|askıya alınmıştır|site askıya alındı",
		"аккаунт заблокирован|сайт заблокирован|аккаунт приостановлен|действие аккаунта приостановлено|сайт отключен|" +
			"хостинг приостановлен|сайт временно заблокирован",
		"обліковий запис призупинено|сайт заблоковано",
		"ο λογαριασμός έχει ανασταλεί",
		"تم تعليق الحساب|الحساب معلق|تم إيقاف الموقع|تم تعليق هذا الحساب",
		"حساب کاربری مسدود|حساب معلق شده|سایت مسدود شده",
		"החשבון הושעה",
		"खाता निलंबित",
		"账户已暂停|帐户已暂停|网站已暂停|网站已关闭|该网站已被暂停",
		"アカウントは停止|アカウント停止|このサイトは停止|サイトは現在停止",
		"계정이 정지|계정 정지|사이트가 정지|일시 정지된",
		"akun ditangguhkan|telah ditangguhkan|situs ditangguhkan",
		"tài khoản đã bị tạm ngưng|tài khoản bị khóa",
		"cont suspendat|contul a fost suspendat",
		"акаунтът е спрян|акаунтът е блокиран",
		"kontoen er suspenderet|kontoen er spærret",
		"kontoen er suspendert|kontoen er stengt",
		"tili on jäädytetty|tili suljettu",
		"compte suspès|el compte ha estat suspès",
		"บัญชีถูกระงับ|ระงับบัญชี",
	}},
	{KindError, []string{
		"error establishing a database connection|database error|database connection|could not connect to the database|" +
			"unable to connect to database|mysql_connect|mysql error|too many connections|internal server error|" +
			"service unavailable|service temporarily unavailable|bad gateway|gateway timeout|fatal error|sql syntax|" +
			"server error|php fatal error|parse error|stack trace|an error occurred|error occurred while processing|" +
			"runtime error|application error|sqlstate|mysql|mysqli|pdoexception|odbc|traceback|database",
		"fehler beim herstellen der datenbankverbindung|datenbankfehler|datenbankverbindung|interner serverfehler|" +
			"dienst nicht verfügbar|verbindung zur datenbank|ein fehler ist aufgetreten",
		"erreur lors de la connexion à la base de données|erreur de base de données|erreur interne du serveur|" +
			"service indisponible|base de données|une erreur est survenue",
		"error al establecer una conexión con la base de datos|error de base de datos|error interno del servidor|" +
			"servicio no disponible|base de datos|se ha producido un error",
		"errore nello stabilire una connessione al database|errore del database|errore interno del server|" +
			"servizio non disponibile|si è verificato un errore",
		"erro ao estabelecer uma conexão com o banco de dados|erro de banco de dados|erro interno do servidor|" +
			"serviço indisponível|banco de dados|ocorreu um erro",
		"fout bij het maken van een databaseverbinding|databasefout|interne serverfout|dienst niet beschikbaar",
		"fel vid upprättande av databasanslutning|databasfel|internt serverfel",
		"błąd podczas nawiązywania połączenia z bazą danych|błąd bazy danych|wewnętrzny błąd serwera|usługa niedostępna",
		"chyba při navazování spojení s databází|chyba databáze|interní chyba serveru",
		"hiba az adatbázis kapcsolat létrehozásakor|adatbázis hiba|adatbázishiba|belső szerverhiba",
		"veritabanı bağlantısı kurulurken hata|veritabanı hatası|sunucu hatası|hizmet kullanılamıyor",
		"ошибка установки соединения с базой данных|ошибка базы данных|ошибка подключения к базе данных|" +
			"внутренняя ошибка сервера|сервис недоступен|сервис временно недоступен",
		"помилка бази даних|внутрішня помилка сервера",
		"σφάλμα βάσης δεδομένων|σφάλμα διακομιστή",
		"خطأ في إنشاء اتصال بقاعدة البيانات|خطأ في قاعدة البيانات|خطأ داخلي في الخادم|الخدمة غير متوفرة",
		"خطا در برقراری ارتباط با پایگاه داده|خطای پایگاه داده|خطای داخلی سرور",
		"שגיאה בהתחברות למסד הנתונים|שגיאת שרת",
		"डेटाबेस कनेक्शन स्थापित करने में त्रुटि|सर्वर त्रुटि",
		"数据库连接错误|建立数据库连接时出错|数据库错误|服务器内部错误|服务不可用",
		"データベース接続確立エラー|データベースエラー|データベースに接続できません|内部サーバーエラー|サービスは利用できません",
		"데이터베이스 연결 오류|데이터베이스 오류|내부 서버 오류|서비스를 사용할 수 없습니다",
		"kesalahan saat membuat koneksi basis data|kesalahan basis data|kesalahan server internal",
		"lỗi kết nối cơ sở dữ liệu|lỗi máy chủ nội bộ",
		"eroare la stabilirea conexiunii cu baza de date|eroare de bază de date|eroare internă a serverului",
		"грешка при свързване с базата данни|грешка в базата данни|вътрешна грешка на сървъра",
		"fejl ved oprettelse af databaseforbindelse|databasefejl|intern serverfejl",
		"feil ved oppretting av databasetilkobling|databasefeil|intern serverfeil",
		"virhe tietokantayhteyden muodostamisessa|tietokantavirhe|sisäinen palvelinvirhe",
		"error en establir una connexió amb la base de dades|error de base de dades",
		"เกิดข้อผิดพลาดในการเชื่อมต่อฐานข้อมูล|ข้อผิดพลาดของฐานข้อมูล|เซิร์ฟเวอร์ขัดข้อง",
		"ডাটাবেস সংযোগ স্থাপনে ত্রুটি|সার্ভার ত্রুটি",
		"தரவுத்தள இணைப்பில் பிழை|சேவையக பிழை",
	}},
	{KindNotFound, []string{
		"page not found|not found|404|could not be found|cannot be found|can't be found|does not exist|" +
			"no longer exists|no longer available|has been removed|nothing was found|nothing found|the requested url|" +
			"we couldn't find|we can't find|page you requested|page you are looking for|page you were looking for|" +
			"broken link|file not found|object not found|error 404",
		"seite nicht gefunden|nicht gefunden|existiert nicht|konnte nicht gefunden werden|die angeforderte seite|" +
			"nicht mehr verfügbar|objekt nicht gefunden",
		"page introuvable|page non trouvée|n'existe pas|n'existe plus|est introuvable|objet non trouvé|la page demandée",
		"página no encontrada|no se encuentra|no existe|no se ha encontrado|no pudo ser encontrada|objeto no localizado|" +
			"la página que buscas",
		"pagina non trovata|non trovata|non esiste|oggetto non trovato|la pagina richiesta",
		"página não encontrada|não encontrada|não existe|objeto não encontrado",
		"pagina niet gevonden|niet gevonden|bestaat niet|object niet gevonden",
		"sidan kunde inte hittas|sidan hittades inte|finns inte",
		"nie znaleziono strony|strona nie została znaleziona|nie istnieje|nie znaleziono",
		"stránka nenalezena|stránka nebyla nalezena|neexistuje",
		"az oldal nem található|nem található|nem létezik",
		"sayfa bulunamadı|bulunamadı|mevcut değil",
		"страница не найдена|не найдена|не существует|запрашиваемая страница|ошибка 404",
		"сторінку не знайдено|не знайдено",
		"η σελίδα δεν βρέθηκε|δεν βρέθηκε",
		"الصفحة غير موجودة|لم يتم العثور على الصفحة|غير موجودة|الصفحة المطلوبة غير موجودة",
		"صفحه پیدا نشد|صفحه یافت نشد|یافت نشد",
		"הדף לא נמצא|לא נמצא",
		"पृष्ठ नहीं मिला|नहीं मिला",
		"页面不存在|找不到页面|页面未找到|您访问的页面不存在|无法找到",
		"ページが見つかりません|お探しのページは見つかりません|見つかりません|存在しません",
		"페이지를 찾을 수 없습니다|찾을 수 없습니다|존재하지 않는",
		"halaman tidak ditemukan|tidak ditemukan",
		"không tìm thấy trang|không tìm thấy|không tồn tại",
		"էջը գտնված չէ|էջը չի գտնվել|չի գտնվել",
		"pagina nu a fost găsită|pagina nu există|nu a fost găsit",
		"страницата не е намерена|не е намерена|не съществува",
		"siden blev ikke fundet|siden findes ikke|ikke fundet",
		"siden ble ikke funnet|siden finnes ikke|ikke funnet",
		"sivua ei löytynyt|sivua ei löydy|ei löytynyt",
		"pàgina no trobada|no existeix|no s'ha trobat",
		"ไม่พบหน้าที่คุณต้องการ|ไม่พบหน้า|ไม่พบหน้านี้",
		"পৃষ্ঠাটি খুঁজে পাওয়া যায়নি|পাওয়া যায়নি",
		"பக்கம் கிடைக்கவில்லை|கிடைக்கவில்லை",
		"ገጹ አልተገኘም|አልተገኘም",
	}},
	{KindMaintenance, []string{
		"under construction|coming soon|under maintenance|scheduled maintenance|down for maintenance|" +
			"briefly unavailable for scheduled maintenance|check back soon|check back later|we'll be back|" +
			"we will be back|launching soon|new website is coming|site is being updated|be right back|" +
			"new site is coming|maintenance mode|stay tuned|work in progress",
		"im aufbau|in kürze|wartungsarbeiten|wartungsmodus|demnächst|baustelle|bald verfügbar|wir sind bald zurück",
		"en construction|bientôt disponible|en maintenance|site en travaux|maintenance programmée|revenez bientôt|prochainement",
		"en construcción|próximamente|en mantenimiento|mantenimiento programado|volveremos pronto|vuelve pronto|" +
			"estamos actualizando|pronto estaremos",
		"in costruzione|prossimamente|in manutenzione|manutenzione programmata|torneremo presto",
		"em construção|em breve|em manutenção|manutenção programada|voltaremos em breve",
		"in aanbouw|binnenkort|in onderhoud|gepland onderhoud|we zijn zo terug",
		"under uppbyggnad|kommer snart|underhåll pågår",
		"strona w budowie|w budowie|wkrótce|przerwa techniczna|prace konserwacyjne",
		"ve výstavbě|připravujeme|již brzy|probíhá údržba",
		"fejlesztés alatt|hamarosan|karbantartás|építés alatt|feltöltés alatt",
		"yapım aşamasında|çok yakında|bakım çalışması|bakımdayız|bakım modu",
		"сайт в разработке|в разработке|скоро открытие|на реконструкции|технические работы|ведутся технические работы|" +
			"сайт на обслуживании|сайт находится в стадии разработки",
		"сайт у розробці|технічні роботи",
		"υπό κατασκευή|σύντομα κοντά σας",
		"تحت الإنشاء|قريبا|قيد الصيانة|الموقع تحت الصيانة|قيد الإنشاء",
		"در حال ساخت|به زودی|در حال بروزرسانی|در دست تعمیر",
		"בבנייה|בקרוב",
		"निर्माणाधीन|जल्द आ रहा है",
		"网站建设中|建设中|即将上线|敬请期待|系统维护|维护中|正在维护",
		"工事中|準備中|近日公開|メンテナンス中",
		"공사중|준비중|곧 오픈|점검 중|서비스 점검|유지보수",
		"sedang dibangun|segera hadir|dalam perbaikan|sedang dalam pemeliharaan",
		"đang xây dựng|sắp ra mắt|đang bảo trì",
		"în construcție|în curând|în mentenanță|lucrări de întreținere",
		"в процес на изграждане|очаквайте скоро|в поддръжка",
		"under opbygning|kommer snart|under vedligeholdelse",
		"under oppbygging|kommer snart|under vedlikehold",
		"rakenteilla|tulossa pian|huoltokatko",
		"en construcció|properament|en manteniment",
		"อยู่ระหว่างการปรับปรุง|ปิดปรับปรุง|เร็วๆ นี้",
		"নির্মাণাধীন|শীঘ্রই আসছে|রক্ষণাবেক্ষণ চলছে",
		"கட்டுமானத்தில் உள்ளது|விரைவில்|பராமரிப்பு",
	}},
	{KindRedirected, []string{
		"we have moved|we've moved|we moved|has moved|have moved|this site has moved|our new website|our new site|" +
			"new address|automatically forwarded|automatically redirected|you will be redirected|being redirected|" +
			"if you are not redirected|redirecting|please update your bookmarks|moved permanently",
		"wir sind umgezogen|ist umgezogen|neue adresse|sie werden weitergeleitet|automatisch weitergeleitet",
		"nous avons déménagé|a déménagé|nouvelle adresse|vous allez être redirigé|redirection",
		"nos mudamos|nos hemos mudado|nuestra nueva dirección|nueva dirección|será redirigido|redireccionando",
		"ci siamo trasferiti|nuovo indirizzo|verrai reindirizzato",
		"mudamos de endereço|novo endereço|será redirecionado|redirecionando",
		"we zijn verhuisd|nieuw adres|u wordt doorgestuurd",
		"przenieśliśmy się|nowy adres|zostaniesz przekierowany",
		"költöztünk|új címünk|átirányítjuk",
		"taşındık|yeni adresimiz|yönlendiriliyorsunuz",
		"мы переехали|сайт переехал|новый адрес|вы будете перенаправлены",
		"ми переїхали|нова адреса",
		"لقد انتقلنا|العنوان الجديد|سيتم تحويلك",
		"ما نقل مکان کردیم|آدرس جدید",
		"עברנו|כתובת חדשה",
		"网站已迁移|新网址|正在跳转|自动跳转",
		"移転しました|新しいurl|自動的に移動",
		"이전했습니다|새 주소|자동으로 이동",
		"kami telah pindah|alamat baru",
		"chúng tôi đã chuyển|địa chỉ mới",
	}},
	{KindLogin, []string{
		"log in|login|sign in|username|password|forgot your password|remember me|members only|must be logged in|" +
			"you must log in|create an account|please log in|access denied|authorization required|restricted area|" +
			"accept cookies|cookie consent|we use cookies|before you continue|verify you are human|are you a robot|" +
			"checking your browser|logged in|register",
		"anmelden|einloggen|benutzername|passwort|passwort vergessen|angemeldet bleiben|nur für mitglieder|" +
			"zugriff verweigert|cookies akzeptieren|wir verwenden cookies",
		"se connecter|connexion|identifiant|mot de passe|mot de passe oublié|se souvenir de moi|réservé aux membres|" +
			"accès refusé|accepter les cookies|nous utilisons des cookies",
		"iniciar sesión|usuario|contraseña|olvidaste tu contraseña|recordarme|solo para miembros|acceso denegado|" +
			"aceptar cookies|utilizamos cookies",
		"accedi|nome utente|password dimenticata|ricordami|riservato ai membri|accesso negato|accetta i cookie|" +
			"utilizziamo i cookie",
		"iniciar sessão|nome de usuário|senha|esqueceu a senha|lembrar me|acesso negado|aceitar cookies|utilizamos cookies",
		"inloggen|aanmelden|gebruikersnaam|wachtwoord|wachtwoord vergeten|toegang geweigerd|cookies accepteren",
		"logga in|användarnamn|lösenord|glömt lösenordet",
		"zaloguj się|logowanie|nazwa użytkownika|hasło|nie pamiętasz hasła|dostęp zabroniony",
		"přihlásit|přihlášení|uživatelské jméno|heslo|zapomenuté heslo",
		"bejelentkezés|felhasználónév|jelszó|elfelejtett jelszó|regisztráció",
		"giriş yap|oturum aç|kullanıcı adı|şifre|parola|şifremi unuttum|erişim engellendi",
		"войти|вход|логин|пароль|забыли пароль|запомнить меня|доступ запрещен|авторизация|регистрация",
		"увійти|пароль|забули пароль",
		"σύνδεση|κωδικός πρόσβασης",
		"تسجيل الدخول|اسم المستخدم|كلمة المرور|نسيت كلمة المرور|تذكرني|للأعضاء فقط",
		"نام کاربری|رمز عبور|کلمه عبور|فراموشی رمز",
		"התחברות|שם משתמש|סיסמה",
		"लॉग इन|पासवर्ड|उपयोगकर्ता नाम",
		"登录|登陆|用户名|密码|忘记密码|记住我",
		"ログイン|ユーザー名|パスワード|パスワードを忘れた|会員登録",
		"로그인|아이디|비밀번호|회원가입|비밀번호 찾기",
		"nama pengguna|kata sandi|lupa kata sandi",
		"đăng nhập|tên đăng nhập|mật khẩu|quên mật khẩu",
		"autentificare|nume de utilizator|parolă|ai uitat parola",
		"вход|потребителско име|парола|забравена парола",
		"log ind|brugernavn|adgangskode|glemt adgangskode",
		"logg inn|brukernavn|passord|glemt passord",
		"kirjaudu sisään|käyttäjätunnus|salasana|unohditko salasanan",
		"inicia la sessió|nom d'usuari|contrasenya",
		"เข้าสู่ระบบ|ชื่อผู้ใช้|รหัสผ่าน|ลืมรหัสผ่าน",
		"লগইন|ব্যবহারকারীর নাম|পাসওয়ার্ড",
		"உள்நுழை|பயனர்பெயர்|கடவுச்சொல்",
	}},
}

// spamRoots begin the words of injected spam: pharmacy, gambling, payday
// loans, counterfeits, adult sites, SEO and their sales talk. Matched as
// prefixes of stemmed terms in any language (the words are mostly the same
// in all). Roots that begin ordinary words ("bet" of "better", "soma" of
// "Somalia", "credit", "debt") are left out.
var spamRoots = []string{
	// pharmacy
	"viagra", "cialis", "levitra", "tramadol", "xanax", "valium", "phentermin", "propecia", "ambien", "tadalafil",
	"sildenafil", "vardenafil", "kamagra", "clomid", "accutan", "zithromax", "meridia", "carisoprodol", "prednison",
	"diazepam", "lorazepam", "oxycodon", "hydrocodon", "adderal", "pharmac", "drugstor", "prescript", "pill", "meds",
	// gambling
	"casino", "poker", "holdem", "slot", "jackpot", "roulett", "blackjack", "baccarat", "keno", "bingo", "craps",
	"gambl", "betting", "sportsbook", "wager",
	// loans
	"payday", "loan", "mortgag", "refinanc",
	// counterfeits
	"replica", "rolex", "louboutin", "vuitton", "gucci", "handbag", "outlet", "oakley", "rayban", "kors", "cartier",
	"tiffani", "ugg", "nike", "sunglass", "knockoff", "counterfeit", "fake",
	// adult, SEO
	"porn", "xxx", "escort", "backlink", "ringtone", "weightloss", "garcinia",
	// sales talk
	"cheap", "discount", "bonus",
}
