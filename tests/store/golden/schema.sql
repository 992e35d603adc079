-- index address_changes_account on address_changes
CREATE INDEX address_changes_account ON address_changes (account_id);
-- index audit_game_action on audit
CREATE INDEX audit_game_action ON audit (game_id, action);
-- index ledger_account on ledger
CREATE INDEX ledger_account ON ledger (account_id);
-- index ledger_game_turn on ledger
CREATE INDEX ledger_game_turn ON ledger (game_id, turn);
-- index ledger_ref on ledger
CREATE INDEX ledger_ref ON ledger (ref);
-- index ledger_reference on ledger
CREATE UNIQUE INDEX ledger_reference ON ledger (reference COLLATE NOCASE) WHERE reference IS NOT NULL;
-- index mail_taken_content on mail_taken
CREATE INDEX mail_taken_content ON mail_taken (content_hash);
-- index mail_taken_questions on mail_taken
CREATE INDEX mail_taken_questions ON mail_taken (id) WHERE outcome = 'question';
-- index observers_game on observers
CREATE INDEX observers_game ON observers (game_id, stopped);
-- index outbox_answers on outbox
CREATE INDEX outbox_answers ON outbox (queued) WHERE kind = 'acknowledgement';
-- index outbox_due on outbox
CREATE INDEX outbox_due ON outbox (status, next_attempt);
-- index outbox_recipient on outbox
CREATE INDEX outbox_recipient ON outbox (recipient, kind, queued);
-- index outbox_report on outbox
CREATE INDEX outbox_report ON outbox (game_id, turn, kind, status);
-- index person_requests_open on person_requests
CREATE INDEX person_requests_open ON person_requests (confirm_from) WHERE settled IS NULL;
-- index press_game on press
CREATE INDEX press_game ON press (game_id);
-- index press_game_turn on press
CREATE INDEX press_game_turn ON press (game_id, turn);
-- index press_source on press
CREATE INDEX press_source ON press (source);
-- index seat_players_seat on seat_players
CREATE INDEX seat_players_seat ON seat_players (seat_id, from_turn);
-- index seats_account on seats
CREATE INDEX seats_account ON seats (account_id);
-- index submissions_current on submissions
CREATE INDEX submissions_current ON submissions (seat_id, turn) WHERE current = 1;
-- index submissions_seat_turn on submissions
CREATE INDEX submissions_seat_turn ON submissions (seat_id, turn);
-- index submissions_source on submissions
CREATE INDEX submissions_source ON submissions (source);
-- index turns_unpublished on turns
CREATE INDEX turns_unpublished ON turns (game_id, number) WHERE published IS NULL;
-- index waiting_confirmed on waiting
CREATE INDEX waiting_confirmed ON waiting (account_id) WHERE confirm_hash IS NULL;
-- index waiting_open on waiting
CREATE INDEX waiting_open ON waiting (ruleset, game_id) WHERE seated IS NULL;
-- index waiting_unconfirmed on waiting
CREATE INDEX waiting_unconfirmed ON waiting (account_id) WHERE confirm_hash IS NOT NULL AND seated IS NULL;
-- table absences on absences
CREATE TABLE absences ( id INTEGER PRIMARY KEY, game_id INTEGER NOT NULL REFERENCES games(id), seat_id INTEGER NOT NULL REFERENCES seats(id), starts TEXT NOT NULL, ends TEXT NOT NULL, source TEXT NOT NULL, created TEXT NOT NULL );
-- table accounts on accounts
CREATE TABLE accounts ( id INTEGER PRIMARY KEY, email TEXT NOT NULL UNIQUE COLLATE NOCASE, name TEXT NOT NULL, created TEXT NOT NULL );
-- table address_changes on address_changes
CREATE TABLE address_changes ( id INTEGER PRIMARY KEY, account_id INTEGER NOT NULL REFERENCES accounts(id), old_email TEXT NOT NULL, new_email TEXT NOT NULL, at TEXT NOT NULL, by TEXT NOT NULL CHECK (by IN ('gm', 'mail', 'forgotten')) );
-- table audit on audit
CREATE TABLE audit ( id INTEGER PRIMARY KEY, at TEXT NOT NULL, game_id INTEGER, action TEXT NOT NULL, detail TEXT NOT NULL , actor TEXT);
-- table games on games
CREATE TABLE games ( id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, ruleset TEXT NOT NULL, ruleset_version TEXT NOT NULL, scenario_name TEXT NOT NULL, scenario_text TEXT NOT NULL, seed INTEGER NOT NULL, status TEXT NOT NULL CHECK (status IN ('open', 'running', 'over')), turn INTEGER NOT NULL DEFAULT 1, deadline TEXT, options TEXT NOT NULL DEFAULT '{}', created TEXT NOT NULL , schedule TEXT, slot TEXT, due TEXT, held INTEGER NOT NULL DEFAULT 0, knocked_out TEXT NOT NULL DEFAULT '[]');
-- table ledger on ledger
CREATE TABLE ledger ( id INTEGER PRIMARY KEY, date TEXT NOT NULL, account_id INTEGER NOT NULL REFERENCES accounts(id), game_id INTEGER REFERENCES games(id), kind TEXT NOT NULL CHECK (kind IN ('payment', 'bonus', 'turn charge', 'adjustment', 'discount award', 'forfeit', 'transfer')), credits INTEGER NOT NULL DEFAULT 0, money INTEGER NOT NULL DEFAULT 0, discount INTEGER NOT NULL DEFAULT 0, turn INTEGER, seat TEXT, ref INTEGER REFERENCES ledger(id), balance INTEGER NOT NULL, discount_after INTEGER NOT NULL, memo TEXT NOT NULL , reference TEXT);
-- table mail_taken on mail_taken
CREATE TABLE mail_taken ( id INTEGER PRIMARY KEY, digest TEXT NOT NULL UNIQUE, message_id TEXT, content_hash TEXT NOT NULL, channel TEXT NOT NULL, source TEXT NOT NULL, sender TEXT, subject TEXT NOT NULL, received TEXT NOT NULL, outcome TEXT NOT NULL, results TEXT NOT NULL, answer TEXT NOT NULL , gm_answered TEXT);
-- table migrations on migrations
CREATE TABLE migrations (name TEXT PRIMARY KEY, applied TEXT NOT NULL);
-- table observer_links on observer_links
CREATE TABLE observer_links ( nonce_hash TEXT PRIMARY KEY, observer_id INTEGER NOT NULL REFERENCES observers(id), created TEXT NOT NULL, expires TEXT NOT NULL, used TEXT );
-- table observers on observers
CREATE TABLE observers ( id INTEGER PRIMARY KEY, game_id INTEGER NOT NULL REFERENCES games(id), email TEXT NOT NULL, added TEXT NOT NULL, stopped TEXT );
-- table outbox on outbox
CREATE TABLE "outbox" ( id INTEGER PRIMARY KEY, kind TEXT NOT NULL CHECK (kind IN ('acknowledgement', 'report', 'resend', 'reminder', 'late', 'link', 'notice', 'press', 'announcement', 'observer')), game_id INTEGER REFERENCES games(id), seat TEXT, turn INTEGER, recipient TEXT NOT NULL, recipient_name TEXT NOT NULL, subject TEXT NOT NULL, body TEXT NOT NULL, attachments TEXT NOT NULL, message_id TEXT NOT NULL UNIQUE, in_reply_to TEXT, refs TEXT NOT NULL, status TEXT NOT NULL CHECK (status IN ('queued', 'sent', 'failed', 'cancelled')), attempts INTEGER NOT NULL DEFAULT 0, next_attempt TEXT NOT NULL, last_error TEXT, queued TEXT NOT NULL, sent TEXT , proved INTEGER NOT NULL DEFAULT 0);
-- table person_requests on person_requests
CREATE TABLE person_requests ( id INTEGER PRIMARY KEY, account_id INTEGER NOT NULL REFERENCES accounts(id), kind TEXT NOT NULL CHECK (kind IN ('address', 'resign', 'forget', 'export')), confirm_from TEXT NOT NULL COLLATE NOCASE, detail TEXT NOT NULL DEFAULT '{}', code_hash TEXT NOT NULL, expires TEXT NOT NULL, tries INTEGER NOT NULL DEFAULT 0, made TEXT NOT NULL, settled TEXT, outcome TEXT );
-- table portal_links on portal_links
CREATE TABLE portal_links ( id TEXT PRIMARY KEY, seat_id INTEGER NOT NULL REFERENCES seats(id), created TEXT NOT NULL, expires TEXT NOT NULL, used TEXT );
-- table press on press
CREATE TABLE press ( id INTEGER PRIMARY KEY, game_id INTEGER NOT NULL REFERENCES games(id), turn INTEGER NOT NULL, kind TEXT NOT NULL CHECK (kind IN ('press', 'announcement')), sender_seat_id INTEGER REFERENCES seats(id), signed INTEGER NOT NULL, everyone INTEGER NOT NULL, recipients TEXT NOT NULL, text TEXT NOT NULL, channel TEXT NOT NULL, source TEXT NOT NULL, archive TEXT NOT NULL, sent TEXT NOT NULL , withheld TEXT);
-- table reminders on reminders
CREATE TABLE reminders ( id INTEGER PRIMARY KEY, game_id INTEGER NOT NULL REFERENCES games(id), turn INTEGER NOT NULL, seat_id INTEGER NOT NULL REFERENCES seats(id), kind TEXT NOT NULL CHECK (kind IN ('reminder', 'late')), at TEXT NOT NULL, UNIQUE (game_id, turn, seat_id, kind) );
-- table reports on reports
CREATE TABLE reports ( id INTEGER PRIMARY KEY, game_id INTEGER NOT NULL REFERENCES games(id), turn INTEGER NOT NULL, seat TEXT NOT NULL, pdf TEXT NOT NULL, json TEXT NOT NULL, pdf_sha256 TEXT NOT NULL, json_sha256 TEXT NOT NULL, rendered TEXT NOT NULL, UNIQUE (game_id, turn, seat) );
-- table runs on runs
CREATE TABLE runs ( id INTEGER PRIMARY KEY, started TEXT NOT NULL, finished TEXT, summary TEXT NOT NULL DEFAULT '[]' );
-- table seat_mail on seat_mail
CREATE TABLE seat_mail ( seat_id INTEGER PRIMARY KEY REFERENCES seats(id), json_reports INTEGER NOT NULL DEFAULT 0 );
-- table seat_players on seat_players
CREATE TABLE seat_players ( id INTEGER PRIMARY KEY, seat_id INTEGER NOT NULL REFERENCES seats(id), account_id INTEGER NOT NULL REFERENCES accounts(id), from_turn INTEGER NOT NULL, reason TEXT NOT NULL, at TEXT NOT NULL );
-- table seats on seats
CREATE TABLE seats ( id INTEGER PRIMARY KEY, game_id INTEGER NOT NULL REFERENCES games(id), code TEXT NOT NULL, account_id INTEGER NOT NULL REFERENCES accounts(id), secret_hash TEXT NOT NULL, status TEXT NOT NULL DEFAULT 'active', joined TEXT NOT NULL, UNIQUE (game_id, code) );
-- table slips on slips
CREATE TABLE slips ( id INTEGER PRIMARY KEY, game_id INTEGER NOT NULL REFERENCES games(id), seat_id INTEGER NOT NULL UNIQUE REFERENCES seats(id), taken TEXT NOT NULL, by TEXT NOT NULL CHECK (by IN ('player', 'default')), source TEXT NOT NULL, choices TEXT NOT NULL );
-- table staff on staff
CREATE TABLE staff ( id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE COLLATE NOCASE, role TEXT NOT NULL CHECK (role IN ('owner', 'gm')), password_hash TEXT, added TEXT NOT NULL, removed TEXT, link_nonce TEXT, link_expires TEXT );
-- table staff_games on staff_games
CREATE TABLE staff_games ( staff_id INTEGER NOT NULL REFERENCES staff(id), game_id INTEGER NOT NULL REFERENCES games(id), PRIMARY KEY (staff_id, game_id) );
-- table standbys on standbys
CREATE TABLE standbys ( id INTEGER PRIMARY KEY, game_id INTEGER NOT NULL REFERENCES games(id), email TEXT NOT NULL, name TEXT NOT NULL, added TEXT NOT NULL, seat_id INTEGER REFERENCES seats(id), -- the seat taken, once taken taken TEXT );
-- table submissions on submissions
CREATE TABLE submissions ( id INTEGER PRIMARY KEY, game_id INTEGER NOT NULL REFERENCES games(id), seat_id INTEGER NOT NULL REFERENCES seats(id), turn INTEGER NOT NULL, channel TEXT NOT NULL, source TEXT NOT NULL, sender TEXT, received TEXT NOT NULL, archive TEXT NOT NULL, encoding TEXT NOT NULL, verdict TEXT NOT NULL CHECK (verdict IN ('accepted', 'rejected')), problems TEXT NOT NULL, orders TEXT NOT NULL, final INTEGER NOT NULL DEFAULT 0, current INTEGER NOT NULL DEFAULT 0 , vote TEXT);
-- table turns on turns
CREATE TABLE turns ( id INTEGER PRIMARY KEY, game_id INTEGER NOT NULL REFERENCES games(id), number INTEGER NOT NULL, seed INTEGER NOT NULL, ruleset_version TEXT NOT NULL, orders TEXT NOT NULL, events TEXT NOT NULL, state TEXT NOT NULL, state_hash TEXT NOT NULL, resolved TEXT NOT NULL, published TEXT, UNIQUE (game_id, number) );
-- table waiting on waiting
CREATE TABLE waiting ( id INTEGER PRIMARY KEY, game_id INTEGER REFERENCES games(id), ruleset TEXT NOT NULL, account_id INTEGER NOT NULL REFERENCES accounts(id), name TEXT NOT NULL, preferences TEXT NOT NULL DEFAULT '[]', came TEXT NOT NULL CHECK (came IN ('mail', 'slip', 'default')), source TEXT NOT NULL, added TEXT NOT NULL, seat_id INTEGER REFERENCES seats(id), seated TEXT , confirm_hash TEXT, confirm_by TEXT);
-- trigger ledger_no_delete on ledger
CREATE TRIGGER ledger_no_delete BEFORE DELETE ON ledger BEGIN SELECT RAISE(ABORT, 'the ledger is append-only'); END;
-- trigger ledger_no_update on ledger
CREATE TRIGGER ledger_no_update BEFORE UPDATE ON ledger BEGIN SELECT RAISE(ABORT, 'the ledger is append-only'); END;
-- migrations applied: m001_initial, m002_mail, m003_portal, m004_ledger, m005_cycle, m006_mail_kinds, m007_current_submissions, m008_published, m009_seat_history, m010_questions, m011_signups, m012_press, m013_signup_confirm, m014_press_withheld, m015_people, m020_staff, m025_votes, m026_observers, m027_observer_mail, m028_observer_links, m029_lookup_indexes, m030_knocked_out, m031_payment_reference, m032_stranger_answers, m033_proved_answers
