"""The schema, as migrations: each entry brings it from version N to N + 1.

Written once, in SQL both stores run: SQLite as it is; PostgreSQL through
`dialect.postgres_ddl` (INTEGER -> BIGINT, as ids hold Discord snowflakes;
AUTOINCREMENT -> an identity column; BLOB -> BYTEA). The one step SQLite could only
take by rebuilding a table is a `Native` entry, one version per database.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Native:
    """Statements that differ between the databases (a table SQLite has to rebuild)."""

    sqlite: tuple[str, ...]
    postgres: tuple[str, ...]


# Each entry brings the schema from version N to N + 1; never edit a shipped one.
MIGRATIONS: tuple[tuple[str | Native, ...], ...] = (
    (
        """
        CREATE TABLE games (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            guild_id INTEGER,
            channel_id INTEGER NOT NULL,
            thread_id INTEGER,
            creator_id TEXT NOT NULL,
            status TEXT NOT NULL CHECK (status IN ('lobby', 'active', 'finished', 'abandoned')),
            players TEXT NOT NULL,
            state TEXT,
            version INTEGER NOT NULL DEFAULT 0,
            message_id INTEGER,
            lobby_message_id INTEGER,
            created_at TEXT NOT NULL,
            updated_at TEXT NOT NULL
        )
        """,
        # one game in its lobby or under way per channel (finished ones are kept)
        """
        CREATE UNIQUE INDEX games_one_open_per_channel
            ON games (channel_id) WHERE status IN ('lobby', 'active')
        """,
        "CREATE INDEX games_thread ON games (thread_id)",
        """
        CREATE TABLE moves (
            game_id INTEGER NOT NULL REFERENCES games (id),
            version INTEGER NOT NULL,
            player TEXT NOT NULL,
            notation TEXT NOT NULL,
            at TEXT NOT NULL,
            PRIMARY KEY (game_id, version)
        )
        """,
    ),
    (
        # the events the current prompt message tells (see GameRow.turn_events)
        "ALTER TABLE games ADD COLUMN turn_events TEXT NOT NULL DEFAULT '{}'",
    ),
    (
        # deadlines (bot.core.clock.deadlines), the result of a game ended early and the 'ended'
        # status; SQLite cannot change a CHECK constraint, so the table is rebuilt
        # (with foreign keys off, see `migrate`)
        Native(
            sqlite=(
                """
                CREATE TABLE games_new (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    guild_id INTEGER,
                    channel_id INTEGER NOT NULL,
                    thread_id INTEGER,
                    creator_id TEXT NOT NULL,
                    status TEXT NOT NULL
                        CHECK (status IN ('lobby', 'active', 'finished', 'abandoned', 'ended')),
                    players TEXT NOT NULL,
                    state TEXT,
                    version INTEGER NOT NULL DEFAULT 0,
                    message_id INTEGER,
                    lobby_message_id INTEGER,
                    created_at TEXT NOT NULL,
                    updated_at TEXT NOT NULL,
                    turn_events TEXT NOT NULL DEFAULT '{}',
                    turn_seconds INTEGER NOT NULL DEFAULT 172800,
                    auction_seconds INTEGER NOT NULL DEFAULT 86400,
                    result TEXT
                )
                """,
                """
                INSERT INTO games_new (id, guild_id, channel_id, thread_id, creator_id, status,
                    players, state, version, message_id, lobby_message_id, created_at,
                    updated_at, turn_events)
                SELECT id, guild_id, channel_id, thread_id, creator_id, status, players, state,
                    version, message_id, lobby_message_id, created_at, updated_at, turn_events
                FROM games
                """,
                "DROP TABLE games",
                "ALTER TABLE games_new RENAME TO games",
                """
                CREATE UNIQUE INDEX games_one_open_per_channel
                    ON games (channel_id) WHERE status IN ('lobby', 'active')
                """,
                "CREATE INDEX games_thread ON games (thread_id)",
            ),
            postgres=(
                "ALTER TABLE games DROP CONSTRAINT games_status_check",
                "ALTER TABLE games ADD CONSTRAINT games_status_check "
                "CHECK (status IN ('lobby', 'active', 'finished', 'abandoned', 'ended'))",
                "ALTER TABLE games ADD COLUMN turn_seconds INTEGER NOT NULL DEFAULT 172800",
                "ALTER TABLE games ADD COLUMN auction_seconds INTEGER NOT NULL DEFAULT 86400",
                "ALTER TABLE games ADD COLUMN result TEXT",
            ),
        ),
        # why a move was made for its player ('deadline': passed when time ran out)
        "ALTER TABLE moves ADD COLUMN note TEXT",
        # what the deadline driver did for a game's current version (0, 1 = half-time, ...)
        """
        CREATE TABLE reminders (
            game_id INTEGER PRIMARY KEY REFERENCES games (id),
            version INTEGER NOT NULL,
            sent INTEGER NOT NULL,
            last_at TEXT NOT NULL
        )
        """,
        """
        CREATE TABLE end_votes (
            game_id INTEGER NOT NULL REFERENCES games (id),
            version INTEGER NOT NULL,
            voter TEXT NOT NULL,
            at TEXT NOT NULL,
            PRIMARY KEY (game_id, voter)
        )
        """,
        """
        CREATE TABLE notify_prefs (
            user_id TEXT PRIMARY KEY,
            dm INTEGER NOT NULL,
            updated_at TEXT NOT NULL
        )
        """,
    ),
    (
        # the version whose prompt `message_id` carries: a crash between saving a move
        # and posting it leaves it behind `version`, and the bot re-posts at start-up
        "ALTER TABLE games ADD COLUMN prompt_version INTEGER",
        "UPDATE games SET prompt_version = version",
    ),
    (
        # the messages each move owes the players (bot.core.delivery.outbox), written with the
        # move and marked once delivered; `next_at` is when to try again
        """
        CREATE TABLE outbox (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            game_id INTEGER NOT NULL REFERENCES games (id),
            version INTEGER NOT NULL,
            kind TEXT NOT NULL,
            body TEXT NOT NULL,
            created_at TEXT NOT NULL,
            attempts INTEGER NOT NULL DEFAULT 0,
            next_at TEXT NOT NULL,
            last_error TEXT,
            delivered_at TEXT,
            message_id INTEGER
        )
        """,
        "CREATE INDEX outbox_owed ON outbox (game_id, id) WHERE delivered_at IS NULL",
    ),
    (
        # heads-up (bot.core.delivery.presence): a notice when the player before you starts a turn
        "ALTER TABLE notify_prefs ADD COLUMN heads_up INTEGER NOT NULL DEFAULT 0",
    ),
    (
        # away (bot.core.delivery.presence): a player away from all their games until `until`
        # (`mode` 'pause': their deadlines wait), and, per game, the moment the clock of
        # the decision awaited at `version` started again when its player came back
        """
        CREATE TABLE away (
            user_id TEXT PRIMARY KEY,
            since TEXT NOT NULL,
            until TEXT NOT NULL,
            mode TEXT NOT NULL DEFAULT 'pause'
        )
        """,
        """
        CREATE TABLE deadline_restarts (
            game_id INTEGER PRIMARY KEY REFERENCES games (id),
            version INTEGER NOT NULL,
            at TEXT NOT NULL
        )
        """,
    ),
    (
        # taking moves back (issue 11.2): each undo bumps the game's `undo_epoch`, which
        # buttons carry beside the version (the version goes down, then up again along
        # another line of play); the moves taken back leave the move log for this audit
        # table, which says who took them back and when
        "ALTER TABLE games ADD COLUMN undo_epoch INTEGER NOT NULL DEFAULT 0",
        """
        CREATE TABLE undone_moves (
            game_id INTEGER NOT NULL REFERENCES games (id),
            undo_epoch INTEGER NOT NULL,
            version INTEGER NOT NULL,
            player TEXT NOT NULL,
            notation TEXT NOT NULL,
            at TEXT NOT NULL,
            note TEXT,
            undone_by TEXT NOT NULL,
            undone_at TEXT NOT NULL,
            PRIMARY KEY (game_id, undo_epoch, version)
        )
        """,
    ),
    (
        # answers in advance (issue 11.3): a player queued to answer a city auction who
        # will pass when it reaches them; `auction` is the version of the move that
        # opened that auction, so a later auction starts with none
        """
        CREATE TABLE advance_passes (
            game_id INTEGER NOT NULL REFERENCES games (id),
            player TEXT NOT NULL,
            auction INTEGER NOT NULL,
            at TEXT NOT NULL,
            PRIMARY KEY (game_id, player)
        )
        """,
    ),
    (
        # AI players (issue 14 points 4-5): AI seats are seats whose id is `ai:<n>`; a
        # game's `absent` setting says what a passed deadline does, `taken_over` lists
        # the human seats the AI plays for now, and the votes to hand one over are kept
        # until it is (or its owner takes it back)
        "ALTER TABLE games ADD COLUMN absent TEXT NOT NULL DEFAULT 'wait'",
        "ALTER TABLE games ADD COLUMN taken_over TEXT NOT NULL DEFAULT '[]'",
        """
        CREATE TABLE takeover_votes (
            game_id INTEGER NOT NULL REFERENCES games (id),
            player TEXT NOT NULL,
            voter TEXT NOT NULL,
            at TEXT NOT NULL,
            PRIMARY KEY (game_id, player, voter)
        )
        """,
    ),
    (
        # the languages (issue 13): a game's public messages and pictures are in its
        # `language`; a player's own answers in their Discord client's, remembered here
        # for what is sent to them later, outside an interaction (DMs, reminders)
        "ALTER TABLE games ADD COLUMN language TEXT NOT NULL DEFAULT 'en'",
        """
        CREATE TABLE user_locales (
            user_id TEXT PRIMARY KEY,
            locale TEXT NOT NULL,
            seen_at TEXT NOT NULL
        )
        """,
    ),
    (
        # the AI plays for an away player (issue 11.5, `away.mode` 'ai'): the games whose
        # seat their away handed to the AI (`games.taken_over`), so that its end gives
        # back those and no seat the others voted over; `reclaimed`: taken back by the
        # player for that one game meanwhile (the away hands it over no more)
        """
        CREATE TABLE away_seats (
            user_id TEXT NOT NULL,
            game_id INTEGER NOT NULL REFERENCES games (id),
            reclaimed INTEGER NOT NULL DEFAULT 0,
            PRIMARY KEY (user_id, game_id)
        )
        """,
    ),
    (
        # away and back lines coalesced (issue 21.2): the line said last in a game about
        # a player's away, edited instead of posting another within the hour
        """
        CREATE TABLE presence_lines (
            game_id INTEGER NOT NULL REFERENCES games (id),
            user_id TEXT NOT NULL,
            message_id INTEGER NOT NULL,
            posted_at TEXT NOT NULL,
            PRIMARY KEY (game_id, user_id)
        )
        """,
    ),
    (
        # the outbox backs off by the time since a message's first failed attempt (issue
        # 29), not by the number of attempts (each move made during an outage forces one)
        "ALTER TABLE outbox ADD COLUMN failing_since TEXT",
    ),
    (
        # each server's settings (issue 21: its limits; the server settings of issue 26
        # are more names here): one row per setting a server changed from the default
        """
        CREATE TABLE guild_settings (
            guild_id INTEGER NOT NULL,
            name TEXT NOT NULL,
            value TEXT NOT NULL,
            updated_at TEXT NOT NULL,
            PRIMARY KEY (guild_id, name)
        )
        """,
    ),
    (
        # ratings and statistics (issue 22, `bot.core.community.ratings`): each server's rating of
        # each player (and of each AI level, a pseudo-player `ai-level:<level>`), one row
        # per finished game and seat written in the same transaction as the game's end,
        # the games rated (or seen and left unrated) so that none is rated twice, a
        # server's row taken first by every rating (PostgreSQL locks it: two game ends of
        # one server rate one after the other), who hides their statistics, and the
        # aways that ended
        """
        CREATE TABLE rating_servers (
            guild_id INTEGER PRIMARY KEY,
            games INTEGER NOT NULL
        )
        """,
        """
        CREATE TABLE ratings (
            guild_id INTEGER NOT NULL,
            player TEXT NOT NULL,
            name TEXT NOT NULL,
            mu DOUBLE PRECISION NOT NULL,
            sigma DOUBLE PRECISION NOT NULL,
            rating INTEGER NOT NULL,
            games INTEGER NOT NULL,
            wins INTEGER NOT NULL,
            streak INTEGER NOT NULL,
            best_streak INTEGER NOT NULL,
            last_game_at TEXT NOT NULL,
            PRIMARY KEY (guild_id, player)
        )
        """,
        "CREATE INDEX ratings_board ON ratings (guild_id, rating)",
        """
        CREATE TABLE game_results (
            game_id INTEGER NOT NULL REFERENCES games (id),
            guild_id INTEGER NOT NULL,
            seat TEXT NOT NULL,
            player TEXT NOT NULL,
            name TEXT NOT NULL,
            place INTEGER NOT NULL,
            seats INTEGER NOT NULL,
            settlements INTEGER NOT NULL,
            quit INTEGER NOT NULL,
            finished INTEGER NOT NULL,
            ai_moves INTEGER NOT NULL,
            rated INTEGER NOT NULL,
            rating_before INTEGER,
            rating_after INTEGER,
            answers TEXT NOT NULL,
            auction_answers TEXT NOT NULL,
            actions TEXT NOT NULL,
            turns INTEGER NOT NULL,
            game_seconds INTEGER NOT NULL,
            started_at TEXT NOT NULL,
            ended_at TEXT NOT NULL,
            PRIMARY KEY (game_id, seat)
        )
        """,
        "CREATE INDEX game_results_player ON game_results (guild_id, player, ended_at)",
        """
        CREATE TABLE rated_games (
            game_id INTEGER PRIMARY KEY REFERENCES games (id),
            guild_id INTEGER,
            rated INTEGER NOT NULL,
            at TEXT NOT NULL
        )
        """,
        """
        CREATE TABLE stats_prefs (
            user_id TEXT PRIMARY KEY,
            hidden INTEGER NOT NULL
        )
        """,
        # each away once it ended (written by `end_away`): the time a player was away is
        # left out of their answer times
        """
        CREATE TABLE away_periods (
            user_id TEXT NOT NULL,
            since TEXT NOT NULL,
            back_at TEXT NOT NULL
        )
        """,
        "CREATE INDEX away_periods_user ON away_periods (user_id, back_at)",
    ),
    (
        # a server's games under way and open lobbies, for its moderators (issue 26)
        "CREATE INDEX games_guild_status ON games (guild_id, status)",
    ),
    (
        # a game's `pictures` setting (issue 25.3): every move, end of turn or on request
        "ALTER TABLE games ADD COLUMN pictures TEXT NOT NULL DEFAULT 'every-move'",
    ),
    (
        # each player's games (issue 25.2, `store.mine`): one row per seat, kept with
        # `games.players` in the same transaction, keyed by the user so that "my games"
        # reads that user's rows only; filled here for the games already there. And the
        # daily digest: who wants it, and the day it was last sent to them
        """
        CREATE TABLE game_seats (
            user_id TEXT NOT NULL,
            game_id INTEGER NOT NULL REFERENCES games (id),
            PRIMARY KEY (user_id, game_id)
        )
        """,
        "CREATE INDEX game_seats_game ON game_seats (game_id)",
        Native(
            sqlite=(
                "INSERT INTO game_seats (user_id, game_id) "
                "SELECT DISTINCT json_extract(p.value, '$.id'), g.id "
                "FROM games g, json_each(g.players) p",
            ),
            postgres=(
                "INSERT INTO game_seats (user_id, game_id) "
                "SELECT DISTINCT p ->> 'id', g.id "
                "FROM games g, jsonb_array_elements(g.players::jsonb) p",
            ),
        ),
        "ALTER TABLE notify_prefs ADD COLUMN digest INTEGER NOT NULL DEFAULT 0",
        """
        CREATE TABLE digests (
            user_id TEXT PRIMARY KEY,
            day TEXT NOT NULL
        )
        """,
    ),
    (
        # the matchmaking queue (issue 25 point 5): once per server and player
        """
        CREATE TABLE match_queue (
            guild_id INTEGER NOT NULL,
            user_id TEXT NOT NULL,
            name TEXT NOT NULL,
            counts TEXT NOT NULL,
            pace TEXT NOT NULL,
            language TEXT NOT NULL,
            channel_id INTEGER NOT NULL,
            queued_at TEXT NOT NULL,
            PRIMARY KEY (guild_id, user_id)
        )
        """,
    ),
    (
        # each player's quiet hours and time zone (issue 25 point 1, `bot.core.clock.hours`)
        """
        CREATE TABLE quiet_hours (
            user_id TEXT PRIMARY KEY,
            quiet_from TEXT NOT NULL,
            quiet_to TEXT NOT NULL,
            zone TEXT NOT NULL,
            updated_at TEXT NOT NULL
        )
        """,
    ),
    (
        # the web pages (issue 28): each game's page lives at a random token, made
        # the first time the bot links the page (never the game id, which is guessable)
        """
        CREATE TABLE web_tokens (
            game_id INTEGER PRIMARY KEY REFERENCES games (id),
            token TEXT NOT NULL UNIQUE
        )
        """,
    ),
    (
        # the web pages (issue 28): each server's page (its leaderboard, games and
        # results) lives at a random token too, made when the bot first links it; the
        # server's name as the bot last saw it heads the page (the web knows no Discord)
        """
        CREATE TABLE web_server_tokens (
            guild_id INTEGER PRIMARY KEY,
            token TEXT NOT NULL UNIQUE,
            name TEXT NOT NULL DEFAULT ''
        )
        """,
    ),
    (
        # PostgreSQL tells the web pages a game moved (issue 28): NOTIFY from inside the
        # transaction that changes its version or undo epoch, so that it is delivered
        # when (and only if) that transaction commits, whichever statement made it;
        # the web process LISTENs (`WebTables.listen_moves`). SQLite has no such thing:
        # its pages poll the versions.
        Native(
            sqlite=(),
            postgres=(
                """
                CREATE OR REPLACE FUNCTION montana_game_moved() RETURNS trigger AS $$
                BEGIN
                    PERFORM pg_notify('montana_moves', NEW.id::text);
                    RETURN NULL;
                END
                $$ LANGUAGE plpgsql
                """,
                """
                CREATE TRIGGER games_moved AFTER UPDATE OF version, undo_epoch ON games
                    FOR EACH ROW
                    WHEN (OLD.version <> NEW.version OR OLD.undo_epoch <> NEW.undo_epoch)
                    EXECUTE FUNCTION montana_game_moved()
                """,
            ),
        ),
    ),
    (
        # where each delivered message lives (issue 41): an old prompt's buttons are
        # cleared in the channel or thread it was posted in, also after the game moved
        "ALTER TABLE outbox ADD COLUMN channel_id BIGINT",
    ),
    (
        # one drawing per version (issue 37.3, `store.drawn`): the picture drawn for a
        # game's version in a language, kept for every surface that shows it (the post,
        # the replay's steps, the web pages) up to a size bound, evicted by last use
        """
        CREATE TABLE drawn_pictures (
            game_id INTEGER NOT NULL REFERENCES games (id),
            undo_epoch INTEGER NOT NULL,
            version INTEGER NOT NULL,
            language TEXT NOT NULL,
            inputs TEXT NOT NULL,
            size INTEGER NOT NULL,
            drawn_at TEXT NOT NULL,
            used_at TEXT NOT NULL,
            png BLOB NOT NULL,
            PRIMARY KEY (game_id, undo_epoch, version, language)
        )
        """,
        # the picture last: SQLite reads a row's columns up to the one asked for, and a
        # column after the picture would cost a walk through all its pages; the size in
        # an index of its own, so the total checked at every keep reads no picture
        "CREATE INDEX drawn_pictures_used ON drawn_pictures (used_at)",
        "CREATE INDEX drawn_pictures_size ON drawn_pictures (size)",
    ),
    (
        # when a retry's look for an earlier attempt first failed (issue 41): the bound
        # on waiting before posting without that look counts from it, also after a
        # restart (`bot.core.delivery.problems.CannotLook`)
        "ALTER TABLE outbox ADD COLUMN looks_failing_since TEXT",
    ),
    (
        # signing in on the web pages with Discord (issue 38.3, `store.sessions`): the
        # sign-ins under way by their state, the sessions by a hash of their secret
        """
        CREATE TABLE web_logins (
            state TEXT PRIMARY KEY,
            verifier TEXT NOT NULL,
            back TEXT NOT NULL,
            expires_at TEXT NOT NULL
        )
        """,
        """
        CREATE TABLE web_sessions (
            id TEXT PRIMARY KEY,
            user_id TEXT NOT NULL,
            name TEXT NOT NULL,
            csrf TEXT NOT NULL,
            created_at TEXT NOT NULL,
            expires_at TEXT NOT NULL
        )
        """,
        "CREATE INDEX web_sessions_expiry ON web_sessions (expires_at)",
    ),
    (
        # tournaments a server runs itself (issue 40, `store.tournaments`): the event,
        # its entrants in sign-up order, each round seated (its tables, each opened as a
        # game once: unique by tournament, round and table) and its byes. No foreign key
        # to `tournaments`: a copy fills the tables in name order.
        """
        CREATE TABLE tournaments (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            guild_id INTEGER NOT NULL,
            name TEXT NOT NULL,
            format TEXT NOT NULL,
            table_sizes TEXT NOT NULL,
            rounds INTEGER NOT NULL,
            advance INTEGER NOT NULL,
            group_size INTEGER NOT NULL,
            pace TEXT NOT NULL,
            language TEXT NOT NULL,
            signup_until TEXT,
            max_players INTEGER,
            status TEXT NOT NULL
                CHECK (status IN ('signup', 'running', 'finished', 'cancelled')),
            organiser_id TEXT NOT NULL,
            channel_id INTEGER NOT NULL,
            message_id INTEGER,
            created_at TEXT NOT NULL,
            started_at TEXT,
            ended_at TEXT,
            champion_id TEXT
        )
        """,
        "CREATE INDEX tournaments_guild ON tournaments (guild_id, status)",
        """
        CREATE TABLE tournament_entrants (
            tournament_id INTEGER NOT NULL,
            user_id TEXT NOT NULL,
            name TEXT NOT NULL,
            joined_at TEXT NOT NULL,
            dropped_at TEXT,
            PRIMARY KEY (tournament_id, user_id)
        )
        """,
        """
        CREATE TABLE tournament_rounds (
            tournament_id INTEGER NOT NULL,
            round INTEGER NOT NULL,
            seated_at TEXT NOT NULL,
            PRIMARY KEY (tournament_id, round)
        )
        """,
        """
        CREATE TABLE tournament_tables (
            tournament_id INTEGER NOT NULL,
            round INTEGER NOT NULL,
            table_number INTEGER NOT NULL,
            players TEXT NOT NULL,
            game_id INTEGER REFERENCES games (id),
            outcome TEXT,
            PRIMARY KEY (tournament_id, round, table_number)
        )
        """,
        "CREATE UNIQUE INDEX tournament_tables_game ON tournament_tables (game_id)",
        """
        CREATE TABLE tournament_byes (
            tournament_id INTEGER NOT NULL,
            round INTEGER NOT NULL,
            user_id TEXT NOT NULL,
            PRIMARY KEY (tournament_id, round, user_id)
        )
        """,
    ),
    (
        # seasons (issue 40 point 5, `store.seasons`): each server's seasons, numbered
        # from 1, the current one without an end, each past one with its champion as the
        # next one's start found them; each season's ratings, from the initial rating,
        # and each rated seat's rating before and after the game in its season, written
        # in the transaction of the game's end (the all-time `ratings` stay as they are)
        """
        CREATE TABLE seasons (
            guild_id INTEGER NOT NULL,
            season INTEGER NOT NULL,
            name TEXT NOT NULL,
            started_at TEXT NOT NULL,
            started_by TEXT NOT NULL,
            ended_at TEXT,
            champion TEXT,
            champion_name TEXT,
            champion_rating INTEGER,
            champion_games INTEGER,
            PRIMARY KEY (guild_id, season)
        )
        """,
        """
        CREATE TABLE season_ratings (
            guild_id INTEGER NOT NULL,
            season INTEGER NOT NULL,
            player TEXT NOT NULL,
            name TEXT NOT NULL,
            mu DOUBLE PRECISION NOT NULL,
            sigma DOUBLE PRECISION NOT NULL,
            rating INTEGER NOT NULL,
            games INTEGER NOT NULL,
            wins INTEGER NOT NULL,
            streak INTEGER NOT NULL,
            best_streak INTEGER NOT NULL,
            last_game_at TEXT NOT NULL,
            PRIMARY KEY (guild_id, season, player)
        )
        """,
        "CREATE INDEX season_ratings_board ON season_ratings (guild_id, season, rating)",
        """
        CREATE TABLE season_results (
            game_id INTEGER NOT NULL REFERENCES games (id),
            seat TEXT NOT NULL,
            guild_id INTEGER NOT NULL,
            season INTEGER NOT NULL,
            player TEXT NOT NULL,
            rating_before INTEGER NOT NULL,
            rating_after INTEGER NOT NULL,
            ended_at TEXT NOT NULL,
            PRIMARY KEY (game_id, seat)
        )
        """,
        """
        CREATE INDEX season_results_player
            ON season_results (guild_id, season, player, ended_at)
        """,
    ),
)
SCHEMA_VERSION = len(MIGRATIONS)
