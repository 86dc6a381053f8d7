#!/usr/bin/env python3
"""stream: a synthetic music streaming service (2023-01-01 .. 2024-06-30) in a DuckDB file, schema `app`.

    python3 load.py                 # writes /tmp/dev_stream.duckdb (what meta.json points at)
    python3 load.py PATH.duckdb     # or there

Generated deterministically with random.Random(41) (same rows every run, nothing downloaded). The file
is written beside the target and moved into place, so re-running is safe. DuckDB has no users: the
read-only reader is whoever opens the file read-only (the bot does).

Naming: tables are singular PascalCase and must be quoted (app."Listener", app."PlaylistTrack"); columns
are snake_case. Primary keys are declared, foreign keys are NOT declared at all (implied by *_id names).
Codes are explained only in COMMENT ON COLUMN: tier / plan (F free, P premium individual, S student,
D duo) and device (M mobile, D desktop app, W web player, T smart TV / console, S smart speaker, C car).

  app."Artist"         artists; two different artists are both called "Aurora" (NO and US)
  app."Album"          albums, EPs and singles with release_date (one album is released after the extract)
  app."Track"          one row per track: genre (a few NULL), duration_ms, explicit
  app."Listener"       accounts: country (ISO alpha-2, 'GB' not 'UK'), signup_date, current tier code,
                       referred_by_listener_id (self-reference: the listener who referred them)
  app."Subscription"   paid plan history: plan code, started_on, ended_on (NULL = still running),
                       monthly_price (USD, price rise for new subscriptions from 2023-07-24), end_reason
  app."Play"           one row per stream: played_at (UTC), seconds_played (< 30 = a skip), device code,
                       playlist_id when played from a playlist
  app."Playlist"       playlists; owner_listener_id NULL = editorial (made by our staff)
  app."PlaylistTrack"  tracks on each playlist with position and added_at

Listeners signed up from 2022-03 on, but plays only start 2023-01-01; extract date 2024-06-30. Built-in
signal: Lumen Drive is the most streamed artist; Classical and Jazz are skipped least, Hip-Hop most; mobile
is the main device and skips most, TV least; paying listeners stream about twice as much; most student
subscriptions end in June; listener 10144 (omar_2330) referred 24 others; about a quarter of listeners
never streamed; 122 tracks were never played (9 of them on the unreleased album).
"""

import csv
import datetime as dt
import math
import os
import random
import shutil
import sys
import tempfile
from bisect import bisect_right
from itertools import accumulate
from pathlib import Path

sys.path.insert(0, str(next(p / "shared/eval/domains" for p in Path(__file__).resolve().parents
                            if (p / "shared/eval/domains").is_dir())))  # the shared eval loaders' helpers
import _common  # noqa: E402

SCHEMA = "app"
DEFAULT_PATH = "/tmp/dev_stream.duckdb"
SEED = 41
START, END = dt.date(2023, 1, 1), dt.date(2024, 6, 30)   # plays cover START..END; END is the extract date
PRICE_RISE = dt.date(2023, 7, 24)

DDL = [
    f"""CREATE TABLE {SCHEMA}."Artist" (
        artist_id INTEGER PRIMARY KEY,
        name VARCHAR NOT NULL,
        country VARCHAR(2),
        debut_year SMALLINT)""",
    f"""CREATE TABLE {SCHEMA}."Album" (
        album_id INTEGER PRIMARY KEY,
        artist_id INTEGER NOT NULL,
        title VARCHAR NOT NULL,
        album_type VARCHAR NOT NULL,
        release_date DATE NOT NULL,
        label VARCHAR)""",
    f"""CREATE TABLE {SCHEMA}."Track" (
        track_id INTEGER PRIMARY KEY,
        album_id INTEGER NOT NULL,
        artist_id INTEGER NOT NULL,
        title VARCHAR NOT NULL,
        track_no SMALLINT NOT NULL,
        genre VARCHAR,
        duration_ms INTEGER NOT NULL,
        explicit BOOLEAN NOT NULL)""",
    f"""CREATE TABLE {SCHEMA}."Listener" (
        listener_id INTEGER PRIMARY KEY,
        username VARCHAR NOT NULL,
        country VARCHAR(2),
        birth_year SMALLINT,
        signup_date DATE NOT NULL,
        tier CHAR(1) NOT NULL,
        referred_by_listener_id INTEGER)""",
    f"""CREATE TABLE {SCHEMA}."Subscription" (
        subscription_id INTEGER PRIMARY KEY,
        listener_id INTEGER NOT NULL,
        plan CHAR(1) NOT NULL,
        started_on DATE NOT NULL,
        ended_on DATE,
        monthly_price DECIMAL(6, 2) NOT NULL,
        end_reason VARCHAR)""",
    f"""CREATE TABLE {SCHEMA}."Playlist" (
        playlist_id INTEGER PRIMARY KEY,
        owner_listener_id INTEGER,
        name VARCHAR NOT NULL,
        is_public BOOLEAN NOT NULL,
        created_at TIMESTAMP NOT NULL)""",
    f"""CREATE TABLE {SCHEMA}."PlaylistTrack" (
        playlist_id INTEGER NOT NULL,
        position SMALLINT NOT NULL,
        track_id INTEGER NOT NULL,
        added_at TIMESTAMP NOT NULL,
        PRIMARY KEY (playlist_id, position))""",
    f"""CREATE TABLE {SCHEMA}."Play" (
        play_id BIGINT PRIMARY KEY,
        listener_id INTEGER NOT NULL,
        track_id INTEGER NOT NULL,
        played_at TIMESTAMP NOT NULL,
        seconds_played INTEGER NOT NULL,
        device CHAR(1) NOT NULL,
        playlist_id INTEGER)""",
]
TABLE_COMMENTS = {
    "Artist": "Recording artists and bands",
    "Album": "Releases: albums, EPs and singles",
    "Track": "One row per track (song) in the catalog",
    "Listener": "One row per user account on the service",
    "Subscription": "Paid plan periods of a listener; free listeners have none",
    "Playlist": "Playlists made by listeners or by our editors",
    "PlaylistTrack": "Tracks on a playlist",
    "Play": "One row per stream: a listener started a track",
}
COLUMN_COMMENTS = {
    ("Artist", "country"): "ISO 3166-1 alpha-2 country code of origin",
    ("Album", "album_type"): "album, ep or single",
    ("Track", "duration_ms"): "track length in milliseconds",
    ("Track", "genre"): "main genre; NULL = not tagged yet",
    ("Listener", "country"): "ISO 3166-1 alpha-2 country code (GB for the United Kingdom); NULL = unknown",
    ("Listener", "tier"): "current tier: F = free (ad-supported), P = premium individual, S = student, D = duo",
    ("Listener", "referred_by_listener_id"): "listener_id of the listener who referred this one; NULL = not referred",
    ("Subscription", "plan"): "P = premium individual, S = student, D = duo",
    ("Subscription", "ended_on"): "last day of the paid period; NULL = still running",
    ("Subscription", "monthly_price"): "USD per month at the time the subscription started",
    ("Subscription", "end_reason"): "cancelled, payment_failed or plan_change; NULL while running",
    ("Playlist", "owner_listener_id"): "listener who made it; NULL = editorial playlist made by our staff",
    ("Play", "played_at"): "when the stream started, UTC",
    ("Play", "seconds_played"): "seconds actually listened; under 30 seconds counts as a skip",
    ("Play", "device"): "M = mobile app, D = desktop app, W = web player, T = smart TV / console, "
                        "S = smart speaker, C = car",
    ("Play", "playlist_id"): "playlist the stream was started from; NULL = album, search or radio",
}

GENRES = ["Pop", "Hip-Hop", "Rock", "Electronic", "R&B", "Latin", "Indie", "Country", "Jazz", "Classical"]
GENRE_W = [24, 18, 13, 11, 8, 9, 7, 5, 3, 2]
GENRE_SKIP = {"Pop": 1.15, "Hip-Hop": 1.35, "Rock": 0.95, "Electronic": 1.1, "R&B": 1.0, "Latin": 1.0,
              "Indie": 0.9, "Country": 0.95, "Jazz": 0.6, "Classical": 0.45}
GENRE_LEN = {"Pop": 200, "Hip-Hop": 195, "Rock": 235, "Electronic": 250, "R&B": 215, "Latin": 205,
             "Indie": 225, "Country": 210, "Jazz": 330, "Classical": 420}
DEVICES = ["M", "D", "W", "T", "S", "C"]
DEVICE_W = [56, 15, 10, 8, 6, 5]
DEVICE_SKIP = {"M": 1.2, "D": 0.9, "W": 1.0, "T": 0.7, "S": 0.8, "C": 0.85}
COUNTRIES = ["US", "BR", "GB", "DE", "MX", "SE", "FR", "CA", "AU", "JP", "IN", "NG"]
COUNTRY_W = [30, 12, 10, 9, 8, 6, 6, 5, 4, 4, 4, 2]
LABELS = ["Northbound Records", "Halcyon Music", "Paper Moon", "Bright Lane", "Copperline", "Saltwater Sound",
          "Redwood Audio", "Atlas Tone"]

ARTISTS = [  # name, country, base genre (the first is the biggest act)
    ("Lumen Drive", "US", "Pop"), ("Kaya Mendes", "BR", "Latin"), ("Static Bloom", "GB", "Indie"),
    ("MC Vortex", "US", "Hip-Hop"), ("Aurora", "NO", "Pop"), ("The Copper Kettles", "GB", "Rock"),
    ("Neon Harbor", "SE", "Electronic"), ("Delilah Sky", "US", "R&B"), ("Los Faroles", "MX", "Latin"),
    ("Tommy Rye", "US", "Country"), ("Velvet Circuit", "DE", "Electronic"), ("Jules Marchand", "FR", "Pop"),
    ("Big Pilot", "US", "Hip-Hop"), ("Glass Animals Club", "GB", "Indie"), ("Saffron Quartet", "US", "Jazz"),
    ("Orquesta Brava", "MX", "Latin"), ("Hana Mori", "JP", "Pop"), ("Riverstone", "CA", "Rock"),
    ("Lil Parcel", "US", "Hip-Hop"), ("Aurora", "US", "Country"), ("Echo Park Youth", "US", "Indie"),
    ("Berlin Nights", "DE", "Electronic"), ("Maya Okoro", "NG", "R&B"), ("The Weekenders", "AU", "Rock"),
    ("Weekenders", "US", "Pop"), ("Sofia Lind", "SE", "Pop"), ("Kid Dynamo", "GB", "Hip-Hop"),
    ("Camila Reyes", "MX", "Latin"), ("Northern Pines", "CA", "Indie"), ("DJ Marlowe", "GB", "Electronic"),
    ("London Philharmonic Ensemble", "GB", "Classical"), ("Vienna Strings", "DE", "Classical"),
    ("Blue Note Trio", "US", "Jazz"), ("Ravi Sen", "IN", "Pop"), ("Priya & The Monsoons", "IN", "Indie"),
    ("Dusty Boots", "US", "Country"), ("Zeta Grey", "US", "R&B"), ("Tokyo Drift Club", "JP", "Electronic"),
    ("Brass Monkeys", "GB", "Jazz"), ("Samba Azul", "BR", "Latin"), ("Golden Hour", "US", "Pop"),
    ("The Lanterns", "US", "Rock"), ("Young Sable", "US", "Hip-Hop"), ("Amelie Roux", "FR", "Indie"),
    ("Coastline", "AU", "Electronic"), ("Marcus Bell", "US", "R&B"), ("Fjord", "NO", "Indie"),
    ("Red Canyon", "US", "Country"), ("Lola Vega", "MX", "Pop"), ("Pulse Theory", "DE", "Electronic"),
]
ADJ = ["Golden", "Broken", "Midnight", "Electric", "Silent", "Wild", "Neon", "Lonely", "Summer", "Paper",
       "Crystal", "Velvet", "Burning", "Frozen", "Sweet", "Dark", "Hollow", "Lucky", "Stolen", "Endless"]
NOUN = ["Heart", "City", "Dreams", "Roads", "Fire", "Rain", "Lights", "Waves", "Ghost", "Sky", "Ocean",
        "Echoes", "Garden", "Mirror", "Highway", "Stars", "Letters", "Shadows", "Youth", "Thunder"]
SHORT = ["Home", "Stay", "Runaway", "Closer", "Gravity", "Alive", "Faded", "Wildfire", "Tonight", "Hold On",
         "Paradise", "Breathe", "Over You", "Satellite", "Daylight", "Bloom", "Sugar", "Let Go", "Fever", "Tides"]
EDITORIAL = ["Today's Top Hits", "Fresh Finds", "Chill Vibes", "Rap Caviar Club", "Rock Classics", "Viva Latino",
             "Mint Electronic", "Hot Country", "Jazz Lounge", "Peaceful Piano & Strings", "Indie Mix",
             "R&B Now", "Workout Beats", "Morning Coffee", "Road Trip", "Sleep", "Throwback Thursday",
             "Dance Party", "Focus Flow", "New Music Friday"]
EDITORIAL_GENRE = {"Rap Caviar Club": "Hip-Hop", "Rock Classics": "Rock", "Viva Latino": "Latin",
                   "Mint Electronic": "Electronic", "Hot Country": "Country", "Jazz Lounge": "Jazz",
                   "Peaceful Piano & Strings": "Classical", "Indie Mix": "Indie", "R&B Now": "R&B"}
USER_PL = ["chill vibes", "gym", "road trip", "my favs", "sad songs", "party", "study", "summer 2023",
           "running", "sunday morning", "throwbacks", "car songs", "focus", "late night", "dinner", "Chill Vibes",
           "workout", "rainy day", "good vibes only", "liked songs backup"]
FIRST = ["alex", "sam", "jordan", "maria", "lucas", "emma", "noah", "mia", "leo", "ana", "kenji", "priya",
         "tom", "sara", "diego", "lena", "omar", "zoe", "felix", "nina", "ravi", "chloe", "ben", "julia"]


def day(d0: dt.date, n: int) -> dt.date:
    return d0 + dt.timedelta(days=n)


def build():
    r = random.Random(SEED)

    # ---- artists
    artists = []
    pop = {}  # artist_id -> popularity weight
    for i, (name, ctry, genre) in enumerate(ARTISTS):
        aid = 101 + i
        debut = None if r.random() < 0.12 else r.randint(1975 if genre in ("Classical", "Jazz") else 1995, 2022)
        artists.append((aid, name, ctry, debut))
        pop[aid] = (60.0 if i == 0 else 30.0 / (1 + i) ** 0.85) * (0.35 if genre == "Classical" else 1.0)
    base_genre = {101 + i: g for i, (_, _, g) in enumerate(ARTISTS)}

    # ---- albums and tracks
    albums, tracks = [], []
    alb_id, trk_id = 2000, 50000
    for aid, _name, _ctry, debut in artists:
        n_rel = r.randint(3, 9)
        first_year = max(debut or 2010, 2008)
        for k in range(n_rel):
            alb_id += 1
            kind = r.choices(["album", "ep", "single"], [45, 20, 35])[0]
            if k == n_rel - 1 and r.random() < 0.5:
                rel = day(dt.date(2023, 1, 6), r.randint(0, 530))   # a recent release inside the window
            else:
                y0 = min(first_year, 2022)
                rel = day(dt.date(y0, 1, 1), r.randint(0, (dt.date(2022, 12, 31) - dt.date(y0, 1, 1)).days))
            rel = rel - dt.timedelta(days=(rel.weekday() - 4) % 7)  # releases come out on Fridays
            title = f"{r.choice(ADJ)} {r.choice(NOUN)}" if kind != "single" else r.choice(SHORT + NOUN)
            label = None if r.random() < 0.1 else r.choice(LABELS)
            albums.append([alb_id, aid, title, kind, rel, label])
            n_tr = {"album": r.randint(8, 14), "ep": r.randint(4, 6), "single": r.randint(1, 2)}[kind]
            for t in range(n_tr):
                trk_id += 1
                g = base_genre[aid] if r.random() < 0.85 else r.choices(GENRES, GENRE_W)[0]
                if r.random() < 0.012:
                    g = None
                ttl = title if (kind == "single" and t == 0) else r.choice(
                    SHORT + [f"{r.choice(ADJ)} {r.choice(NOUN)}", f"{r.choice(NOUN)} of {r.choice(NOUN)}"])
                length = GENRE_LEN.get(g or "Pop", 210)
                ms = int(max(95, r.gauss(length, length * 0.22)) * 1000) + r.randint(0, 999)
                explicit = (g == "Hip-Hop" and r.random() < 0.7) or r.random() < 0.08
                tracks.append((trk_id, alb_id, aid, ttl, t + 1, g, ms, explicit))
    # one album announced for after the extract date: its tracks cannot have been played
    alb_id += 1
    albums.append([alb_id, 104, "Night Shift", "album", dt.date(2024, 7, 19), "Northbound Records"])
    for t in range(9):
        trk_id += 1
        tracks.append((trk_id, alb_id, 104, r.choice(SHORT), t + 1, "Hip-Hop",
                       int(r.gauss(195, 30) * 1000), True))
    alb_rel = {a[0]: a[4] for a in albums}
    albums = [tuple(a) for a in albums]

    # per-genre track lists sorted by release date with cumulative weights, for "released by then" picks
    trk_w = {}
    for tid, _al, aid, _, tno, _g, _ms, _ in tracks:
        w = pop[aid] * r.lognormvariate(0, 1.0) / (1 + 0.15 * (tno - 1))
        if r.random() < 0.03:
            w *= 0.0005   # deep cuts nobody plays
        trk_w[tid] = w
    by_genre = {}
    for t in sorted(tracks, key=lambda t: (alb_rel[t[1]], t[0])):
        g = t[5] or "Pop"
        by_genre.setdefault(g, []).append(t)
    pick_idx = {}
    for g, lst in by_genre.items():
        pick_idx[g] = ([alb_rel[t[1]] for t in lst], list(accumulate(trk_w[t[0]] for t in lst)), lst)
    trk = {t[0]: t for t in tracks}

    def pick_track(genre, on: dt.date):
        dates, cum, lst = pick_idx[genre]
        k = bisect_right(dates, on)
        if k == 0:
            return None
        x = r.random() * cum[k - 1]
        return lst[bisect_right(cum, x, 0, k - 1)]

    # ---- listeners
    listeners = []
    n_list = 2600
    signup_start = dt.date(2022, 3, 1)
    span = (END - signup_start).days
    for i in range(n_list):
        lid = 10001 + i
        su = day(signup_start, int(span * (r.random() ** 0.8)))
        listeners.append([lid, None, None if r.random() < 0.012 else r.choices(COUNTRIES, COUNTRY_W)[0],
                          None if r.random() < 0.1 else int(r.triangular(1955, 2010, 1998)), su, "F", None])
    listeners.sort(key=lambda x: (x[4], x[0]))
    for i, row in enumerate(listeners):
        row[0] = 10001 + i
        row[1] = f"{r.choice(FIRST)}{r.choice(['', '_', '.'])}{r.randint(1, 9999)}"
        if i > 50 and r.random() < 0.14:   # referred by someone who signed up earlier
            pool = listeners[max(0, i - 700):i]
            if i > 400 and r.random() < 0.06:
                row[6] = listeners[143][0]   # one keen ambassador
            else:
                row[6] = r.choice(pool)[0]

    # ---- subscriptions
    subs = []
    sid = 700000
    paid_spans = {}  # listener -> list of (start, end)
    for row in listeners:
        lid, _, _, by, su = row[:5]
        if r.random() > 0.5:
            continue
        start = su + dt.timedelta(days=int(r.expovariate(1 / 70)))
        student_ok = by is not None and by >= 1999
        plan = r.choices(["P", "S", "D"], [62, 28 if student_ok else 0, 18])[0]
        while start <= END:
            sid += 1
            # monthly hazard
            end, reason, nxt_plan = None, None, None
            m = 0
            while True:
                m += 1
                cut = day(start, 30 * m)
                if cut > END:
                    break
                h = {"P": 0.03, "S": 0.045, "D": 0.02}[plan]
                if plan == "S" and cut.month in (6, 7):
                    h = 0.35
                x = r.random()
                if x < h:
                    end, reason = cut - dt.timedelta(days=1), ("payment_failed" if r.random() < 0.22 else "cancelled")
                    break
                if x < h + 0.008:
                    end, reason = cut - dt.timedelta(days=1), "plan_change"
                    nxt_plan = r.choice([p for p in ["P", "S", "D"] if p != plan and (p != "S" or student_ok)])
                    break
            price = {"P": (9.99, 10.99), "S": (4.99, 5.99), "D": (12.99, 14.99)}[plan][start >= PRICE_RISE]
            subs.append((sid, lid, plan, start, end, price, reason))
            paid_spans.setdefault(lid, []).append((start, end or END))
            if end is None:
                row[5] = plan
                break
            if reason == "plan_change":
                start = end + dt.timedelta(days=1)
                plan = nxt_plan
                continue
            if r.random() < 0.25:   # came back later
                start = end + dt.timedelta(days=int(r.expovariate(1 / 90)) + 7)
                continue
            break
    subs.sort(key=lambda s: (s[3], s[0]))
    subs = [(700001 + i, *s[1:]) for i, s in enumerate(subs)]

    # ---- playlists
    playlists, pl_tracks = [], []
    plid = 300
    all_genres = [g for g in GENRES]

    def fill(pid, created: dt.datetime, genres, n):
        seen, pos = set(), 0
        for _ in range(n * 3):
            if pos >= n:
                break
            t_add = created + dt.timedelta(seconds=r.randint(0, max(60, int((dt.datetime(2024, 6, 30, 23, 0) - created).total_seconds() * (r.random() ** 2)))))
            g = r.choice(genres)
            t = pick_track(g, t_add.date())
            if t is None or t[0] in seen:
                continue
            seen.add(t[0])
            pos += 1
            added = max(t_add, dt.datetime.combine(alb_rel[t[1]], dt.time(9, 0)))
            pl_tracks.append((pid, pos, t[0], added))

    for name in EDITORIAL:
        plid += 1
        created = dt.datetime(2022, 1, 1) + dt.timedelta(minutes=r.randint(0, 300 * 24 * 60))
        playlists.append((plid, None, name, True, created))
        g = EDITORIAL_GENRE.get(name)
        fill(plid, created, [g] if g else all_genres[:6], r.randint(40, 80))
    fav = {}
    for row in listeners:
        lid = row[0]
        fav[lid] = r.choices(GENRES, GENRE_W, k=3)
    for row in listeners:
        lid, su = row[0], row[4]
        if r.random() < 0.13:
            for _ in range(r.choices([1, 2, 3, 4], [55, 25, 12, 8])[0]):
                plid += 1
                created = dt.datetime.combine(su, dt.time(0)) + dt.timedelta(
                    minutes=r.randint(0, max(1, (END - su).days) * 24 * 60))
                playlists.append((plid, lid, r.choice(USER_PL), r.random() < 0.55, created))
                fill(plid, created, fav[lid], r.randint(5, 45))
    pl_by_id = {}
    for p in pl_tracks:
        pl_by_id.setdefault(p[0], []).append(p)
    own_pl = {}
    for p in playlists:
        if p[1] is not None:
            own_pl.setdefault(p[1], []).append(p)
    editorial_ids = [p[0] for p in playlists if p[1] is None]

    # ---- plays
    plays = []
    month_factor = {1: 0.95, 2: 0.9, 3: 0.95, 4: 0.95, 5: 1.0, 6: 1.05, 7: 1.1, 8: 1.05, 9: 0.95,
                    10: 1.0, 11: 1.05, 12: 1.25}
    for row in listeners:
        lid, _, ctry, by, su = row[:5]
        if r.random() < 0.085:
            continue   # signed up, never streamed
        base = min(0.6, r.lognormvariate(math.log(0.011), 0.9))
        dev_pref = r.choices(DEVICES, DEVICE_W)[0]
        first = max(su, START)
        last = END
        if r.random() < 0.2:
            last = min(END, day(first, int(r.expovariate(1 / 120))))   # went quiet
        spans = paid_spans.get(lid, [])
        d = first
        while d <= last:
            paid = any(a <= d <= b for a, b in spans)
            p = base * month_factor[d.month] * (2.4 if paid else 1.0) * (1.15 if d.weekday() >= 5 else 1.0)
            if r.random() < min(p, 0.9):
                ts = dt.datetime.combine(d, dt.time(0)) + dt.timedelta(
                    seconds=int(r.triangular(6 * 3600, 24 * 3600 - 1, 19 * 3600)))
                device = dev_pref if r.random() < 0.72 else r.choices(DEVICES, DEVICE_W)[0]
                n = 1 + int(r.expovariate(1 / 5))
                source = None
                if r.random() < 0.28:
                    cands = [p[0] for p in own_pl.get(lid, [])] if own_pl.get(lid) and r.random() < 0.6 else editorial_ids
                    source = r.choice(cands)
                for _ in range(n):
                    t = None
                    if source is not None:
                        avail = [x for x in pl_by_id.get(source, []) if x[3] <= ts]
                        if avail:
                            t = trk[r.choice(avail)[2]]
                    src = source if t is not None else None
                    if t is None:
                        g = r.choice(fav[lid]) if r.random() < 0.75 else r.choices(GENRES, GENRE_W)[0]
                        t = pick_track(g, d)
                        if t is None:
                            continue
                    length = t[6] // 1000
                    q = 0.2 * GENRE_SKIP[t[5] or "Pop"] * DEVICE_SKIP[device] * (1.0 if paid else 1.25)
                    if r.random() < q:
                        secs = r.randint(1, 29)
                    elif r.random() < 0.7:
                        secs = length
                    else:
                        secs = r.randint(30, max(31, length))
                    if ts.date() > END:
                        break
                    plays.append((lid, t[0], ts, secs, device, src))
                    ts = ts + dt.timedelta(seconds=secs + r.randint(0, 4))
            d += dt.timedelta(days=1)
    plays.sort(key=lambda p: (p[2], p[0]))
    plays = [(90000001 + i, *p) for i, p in enumerate(plays)]

    listeners = [tuple(x) for x in listeners]
    return {"Artist": artists, "Album": albums, "Track": tracks, "Listener": listeners,
            "Subscription": subs, "Playlist": playlists, "PlaylistTrack": pl_tracks, "Play": plays}


def write_csv(path, rows):
    with open(path, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        for row in rows:
            w.writerow(["\\N" if v is None else v for v in row])


def main() -> None:
    _common.ensure_venv()
    import duckdb

    path = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else DEFAULT_PATH)
    tables = build()
    work = tempfile.mkdtemp(prefix="stream-load-")
    fd, tmp = tempfile.mkstemp(suffix=".duckdb", dir=os.path.dirname(path))
    os.close(fd)
    os.remove(tmp)  # DuckDB wants to create the file itself
    try:
        con = duckdb.connect(tmp)
        con.execute(f"CREATE SCHEMA {SCHEMA}")
        for ddl in DDL:
            con.execute(ddl)
        for table, comment in TABLE_COMMENTS.items():
            con.execute(f"""COMMENT ON TABLE {SCHEMA}."{table}" IS '{comment}'""")
        for (table, column), comment in COLUMN_COMMENTS.items():
            con.execute(f"""COMMENT ON COLUMN {SCHEMA}."{table}".{column} IS '{comment}'""")
        counts = {}
        for table, rows in tables.items():
            f = os.path.join(work, table + ".csv")
            write_csv(f, rows)
            con.execute(f"""COPY {SCHEMA}."{table}" FROM '{f}' (FORMAT csv, HEADER false, NULLSTR '\\N', QUOTE '"')""")
            counts[f'{SCHEMA}."{table}"'] = con.execute(f'SELECT count(*) FROM {SCHEMA}."{table}"').fetchone()[0]
            assert counts[f'{SCHEMA}."{table}"'] == len(rows), table
        con.execute("CHECKPOINT")
        con.close()
        os.replace(tmp, path)
    finally:
        shutil.rmtree(work, ignore_errors=True)
        for leftover in (tmp, tmp + ".wal"):
            if os.path.exists(leftover):
                os.remove(leftover)
    print(f"loaded the synthetic music streaming service (random.Random({SEED})) into DuckDB file {path}, "
          f"schema {SCHEMA}:")
    _common.print_counts(counts, f"duckdb:///{path}",
                         f"(tables are in schema {SCHEMA}, not main: WAREHOUSE_SCHEMAS={SCHEMA} names it; "
                         "DuckDB has no users: the bot opens the file read-only)")


if __name__ == "__main__":
    main()
