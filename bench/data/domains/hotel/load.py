#!/usr/bin/env python3
"""A synthetic small hotel chain ("Larkspur Hotels", 8 properties) on MariaDB, database dev_hotel.

    python3 load.py            # from anywhere; MariaDB/MySQL on 127.0.0.1:3306, root, no password

Drops and rebuilds database dev_hotel, loads nine tables generated deterministically with
random.Random(31) (no downloads), and creates (or resets) the read-only login
hotel_reader / hotel_reader (SELECT on dev_hotel.* only). Idempotent: the same rows on every run.

Naming: everything lower case with the words run together and no underscores, as if a tool had
lower-cased a camelCase schema (`roomtypes`, `guestreviews`, `reservationid`, `checkindate`,
`nightlyrate`, `cancelledat`). Primary keys are declared, foreign keys are NOT (they are implied by
the *id names). Code columns say what their codes mean only in their COLUMN COMMENT.

  hotels        8 properties in 7 cities (Santa Fe has two; Chattanooga opened 2024-04-01)
  roomtypes     5 chain-wide room types
  rooms         one row per physical room: hotel, number, type, floor
  rateplans     6 rate plans (two non-refundable)
  guests        guest profiles with a loyalty tier code (0-4)
  reservations  bookings: dates, nightly rate, channel code, arrival status code, cancelledat
  stays         one row per booking the guest actually arrived for: room, check-in/out times
  payments      deposits, prepayments, settlements, no-show fees, refunds (negative)
  guestreviews  post-stay reviews: scores 1-10 and a source code

Stays check in 2023-01-01 .. 2025-06-30; the extract is as of 2025-06-30 (end of day), so a few
guests are still in house (stays.checkedoutat NULL) and bookings for July-September 2025 are
upcoming (arrivalstatus 'U').
"""

import bisect
import datetime as dt
import math
import random
import sys
from pathlib import Path

sys.path.insert(0, str(next(p / "shared/eval/domains" for p in Path(__file__).resolve().parents
                            if (p / "shared/eval/domains").is_dir())))
import _common  # noqa: E402

DATABASE, USER = "dev_hotel", "hotel_reader"
URL = f"mysql://{USER}:{USER}@127.0.0.1:3306/{DATABASE}"
SEED = 31
FIRST_DAY = dt.date(2023, 1, 1)
EXTRACT_DAY = dt.date(2025, 6, 30)           # "today" for the data (end of this day)
EXTRACT_END = dt.datetime(2025, 6, 30, 23, 59, 59)
LAST_CHECKIN = dt.date(2025, 9, 30)          # upcoming bookings reach this far
GRID_DAYS = (LAST_CHECKIN - FIRST_DAY).days + 40

# hotelid, name, city, state, opened, star rating, rooms, base rate, review mean, season profile, gm
HOTELS = [
    (1, "Larkspur Savannah Riverfront", "Savannah", "GA", dt.date(2016, 5, 1), 4.0, 56, 189, 8.35, "se", "Denise Okafor"),
    (2, "Larkspur Charleston King Street", "Charleston", "SC", dt.date(2018, 3, 15), 4.5, 48, 209, 8.75, "se", "Marcus Hale"),
    (3, "Larkspur Asheville Downtown", "Asheville", "NC", dt.date(2019, 6, 1), 4.0, 40, 169, 8.30, "mtn", "Priya Raman"),
    (4, "Larkspur Albuquerque Old Town", "Albuquerque", "NM", dt.date(2015, 9, 1), 3.5, 52, 129, 7.05, "abq", "Tom Vigil"),
    (5, "Larkspur Santa Fe Plaza", "Santa Fe", "NM", dt.date(2014, 4, 1), 4.5, 36, 199, 8.60, "sw", "Elena Archuleta"),
    (6, "Larkspur Santa Fe Railyard", "Santa Fe", "NM", dt.date(2021, 10, 1), 3.5, 30, 159, 7.95, "sw", "Jared Cole"),
    (7, "Larkspur Tucson Presidio", "Tucson", "AZ", dt.date(2017, 11, 1), 4.0, 44, 139, 7.90, "az", "Rosa Figueroa"),
    (8, "Larkspur Chattanooga Northshore", "Chattanooga", "TN", dt.date(2024, 4, 1), 4.0, 42, 149, 8.15, "se", "Brian Lusk"),
]
# monthly occupancy targets (Jan..Dec) by season profile
SEASON = {
    "se": [0.52, 0.60, 0.74, 0.80, 0.78, 0.72, 0.68, 0.64, 0.70, 0.80, 0.72, 0.62],
    "mtn": [0.45, 0.50, 0.60, 0.70, 0.74, 0.76, 0.78, 0.74, 0.76, 0.88, 0.72, 0.62],
    "abq": [0.48, 0.52, 0.60, 0.64, 0.66, 0.66, 0.64, 0.62, 0.66, 0.90, 0.60, 0.56],
    "sw": [0.46, 0.52, 0.60, 0.64, 0.70, 0.80, 0.84, 0.80, 0.76, 0.74, 0.58, 0.66],
    "az": [0.80, 0.86, 0.88, 0.76, 0.60, 0.44, 0.40, 0.42, 0.50, 0.66, 0.74, 0.72],
}
# roomtypeid, code, name, max guests, bed configuration, rate multiplier, share of a hotel's rooms
ROOMTYPES = [
    (1, "K1", "Standard King", 2, "1 King", 1.00, 0.38),
    (2, "Q2", "Double Queen", 4, "2 Queen", 1.10, 0.34),
    (3, "AK", "Accessible King", 2, "1 King (roll-in shower)", 1.00, 0.06),
    (4, "ST", "Studio Kitchenette", 3, "1 King + sofa bed", 1.30, 0.12),
    (5, "JS", "Junior Suite", 3, "1 King + sofa bed", 1.60, 0.10),
]
# rateplanid, code, name, refundable, discount pct, description
RATEPLANS = [
    (1, "BAR", "Best Available Rate", 1, 0.00, "Flexible; free cancellation up to 48 hours before arrival"),
    (2, "ADV", "Advance Purchase", 0, 15.00, "Prepaid in full at booking, no refunds"),
    (3, "AAA", "AAA / Senior Rate", 1, 10.00, "Flexible; ID shown at check-in"),
    (4, "CORP", "Corporate Negotiated", 1, 12.00, "Flexible; for contracted company accounts"),
    (5, "FLASH", "Weekend Flash Sale", 0, 20.00, "Prepaid in full at booking, Friday/Saturday arrivals, no refunds"),
    (6, "MBR", "Larkspur Rewards Member Rate", 1, 8.00, "Flexible; members only"),
]
CHANNELS = [("WB", 0.38), ("OT", 0.34), ("PH", 0.11), ("CO", 0.09), ("WI", 0.08)]
CANCEL_P = {"WB": 0.15, "OT": 0.30, "PH": 0.12, "CO": 0.10, "WI": 0.0}
NOSHOW_P = {"WB": 0.020, "OT": 0.050, "PH": 0.025, "CO": 0.030, "WI": 0.0}
HOTEL_NOSHOW = {4: 1.9, 7: 1.2}                # Albuquerque has the most no-shows
STATES = ["GA", "SC", "NC", "TN", "FL", "TX", "CA", "NY", "IL", "AZ", "NM", "CO", "VA", "OH", "PA",
          "WA", "MA", "MI", "MN", "AL"]
FIRST_NAMES = [
    "James", "Mary", "Robert", "Patricia", "John", "Jennifer", "Michael", "Linda", "David", "Elizabeth",
    "William", "Barbara", "Richard", "Susan", "Joseph", "Jessica", "Thomas", "Sarah", "Charles", "Karen",
    "Christopher", "Lisa", "Daniel", "Nancy", "Matthew", "Betty", "Anthony", "Sandra", "Mark", "Margaret",
    "Donald", "Ashley", "Steven", "Kimberly", "Andrew", "Emily", "Paul", "Donna", "Joshua", "Michelle",
    "Kenneth", "Carol", "Kevin", "Amanda", "Brian", "Melissa", "George", "Deborah", "Timothy", "Stephanie",
    "Ronald", "Rebecca", "Jason", "Sharon", "Edward", "Laura", "Jeffrey", "Cynthia", "Ryan", "Dorothy",
    "Jacob", "Amy", "Gary", "Kathleen", "Nicholas", "Angela", "Eric", "Shirley", "Jonathan", "Emma",
    "Stephen", "Brenda", "Larry", "Pamela", "Justin", "Nicole", "Scott", "Anna", "Brandon", "Samantha",
    "Benjamin", "Katherine", "Samuel", "Christine", "Gregory", "Debra", "Alexander", "Rachel", "Patrick",
    "Carolyn", "Frank", "Janet", "Raymond", "Maria", "Jack", "Olivia", "Dennis", "Heather", "Jerry",
    "Helen", "Tyler", "Catherine", "Aaron", "Diane", "Jose", "Julie", "Adam", "Victoria", "Nathan",
    "Joyce", "Henry", "Lauren", "Zachary", "Kelly", "Douglas", "Christina", "Peter", "Ruth", "Kyle",
    "Joan", "Noah", "Virginia", "Ethan", "Judith", "Jeremy", "Evelyn", "Christian", "Hannah", "Walter",
    "Andrea", "Keith", "Megan", "Austin", "Cheryl", "Roger", "Jacqueline", "Terry", "Madison", "Sean",
    "Teresa", "Gerald", "Abigail", "Carl", "Sophia", "Dylan", "Martha", "Harold", "Sara", "Jordan",
    "Gloria", "Jesse", "Janice", "Bryan", "Kathryn", "Lawrence", "Ann", "Arthur", "Isabella", "Gabriel",
    "Judy", "Bruce", "Charlotte", "Logan", "Julia", "Billy", "Grace", "Joe", "Amber", "Alan", "Alice",
    "Juan", "Jean", "Elijah", "Denise", "Willie", "Frances", "Albert", "Danielle", "Wayne", "Marilyn",
    "Randy", "Natalie", "Mason", "Beverly", "Vincent", "Diana", "Liam", "Brittany", "Roy", "Theresa",
    "Bobby", "Kayla", "Caleb", "Alexis", "Bradley", "Doris", "Russell", "Lori", "Lucas", "Tiffany",
]
LAST_NAMES = [
    "Smith", "Johnson", "Williams", "Brown", "Jones", "Garcia", "Miller", "Davis", "Rodriguez", "Martinez",
    "Hernandez", "Lopez", "Gonzalez", "Wilson", "Anderson", "Thomas", "Taylor", "Moore", "Jackson", "Martin",
    "Lee", "Perez", "Thompson", "White", "Harris", "Sanchez", "Clark", "Ramirez", "Lewis", "Robinson",
    "Walker", "Young", "Allen", "King", "Wright", "Scott", "Torres", "Nguyen", "Hill", "Flores",
    "Green", "Adams", "Nelson", "Baker", "Hall", "Rivera", "Campbell", "Mitchell", "Carter", "Roberts",
    "Gomez", "Phillips", "Evans", "Turner", "Diaz", "Parker", "Cruz", "Edwards", "Collins", "Reyes",
    "Stewart", "Morris", "Morales", "Murphy", "Cook", "Rogers", "Gutierrez", "Ortiz", "Morgan", "Cooper",
    "Peterson", "Bailey", "Reed", "Kelly", "Howard", "Ramos", "Kim", "Cox", "Ward", "Richardson",
    "Watson", "Brooks", "Chavez", "Wood", "James", "Bennett", "Gray", "Mendoza", "Ruiz", "Hughes",
    "Price", "Alvarez", "Castillo", "Sanders", "Patel", "Myers", "Long", "Ross", "Foster", "Jimenez",
    "Powell", "Jenkins", "Perry", "Russell", "Sullivan", "Bell", "Coleman", "Butler", "Henderson", "Barnes",
    "Gonzales", "Fisher", "Vasquez", "Simmons", "Romero", "Jordan", "Patterson", "Alexander", "Hamilton",
    "Graham", "Reynolds", "Griffin", "Wallace", "Moreno", "West", "Cole", "Hayes", "Bryant", "Herrera",
    "Gibson", "Ellis", "Tran", "Medina", "Aguilar", "Stevens", "Murray", "Ford", "Castro", "Marshall",
    "Owens", "Harrison", "Fernandez", "McDonald", "Woods", "Washington", "Kennedy", "Wells", "Vargas",
    "Henry", "Chen", "Freeman", "Webb", "Tucker", "Guzman", "Burns", "Crawford", "Olson", "Simpson",
    "Porter", "Hunter", "Gordon", "Mendez", "Silva", "Shaw", "Snyder", "Mason", "Dixon", "Munoz",
    "Hunt", "Hicks", "Holmes", "Palmer", "Wagner", "Black", "Robertson", "Boyd", "Rose", "Stone",
    "Salazar", "Fox", "Warren", "Mills", "Meyer", "Rice", "Schmidt", "Garza", "Daniels", "Ferguson",
    "Nichols", "Stephens", "Soto", "Weaver", "Ryan", "Gardner", "Payne", "Grant", "Dunn", "Kelley",
]
PLANTED_GUEST = ("Odalys", "Brennan-Whitcombe")   # a road-warrior regular with a unique name
SURNAME_TWINS = ("Harriet", "Quintero")           # two different guests share this name

TABLE_COMMENTS = {
    "hotels": "Our properties (hotels) in the Larkspur chain",
    "roomtypes": "Chain-wide room categories",
    "rooms": "Physical rooms, one row per room in a property",
    "rateplans": "Rate plans a booking can be sold under",
    "guests": "Guest profiles (one per person), incl. Larkspur Rewards loyalty tier",
    "reservations": "Bookings: one row per reservation made, including cancelled ones",
    "stays": "One row per reservation the guest actually arrived for (checked in)",
    "payments": "Money taken or refunded against a reservation (USD)",
    "guestreviews": "Post-stay guest reviews",
}
DDL = {
    "hotels": """
        hotelid INT NOT NULL PRIMARY KEY,
        hotelname VARCHAR(60) NOT NULL,
        city VARCHAR(40) NOT NULL,
        statecode CHAR(2) NOT NULL,
        openedon DATE NOT NULL,
        starrating DECIMAL(2,1) NOT NULL,
        generalmanager VARCHAR(60) NOT NULL""",
    "roomtypes": """
        roomtypeid INT NOT NULL PRIMARY KEY,
        typecode CHAR(2) NOT NULL,
        typename VARCHAR(40) NOT NULL,
        maxguests TINYINT NOT NULL,
        bedconfig VARCHAR(40) NOT NULL""",
    "rooms": """
        roomid INT NOT NULL PRIMARY KEY,
        hotelid INT NOT NULL,
        roomnumber VARCHAR(5) NOT NULL,
        roomtypeid INT NOT NULL,
        floornumber TINYINT NOT NULL,
        KEY byhotel (hotelid)""",
    "rateplans": """
        rateplanid INT NOT NULL PRIMARY KEY,
        plancode VARCHAR(6) NOT NULL,
        planname VARCHAR(60) NOT NULL,
        isrefundable TINYINT(1) NOT NULL COMMENT '1 = can be cancelled for a refund, 0 = prepaid / non-refundable',
        discountpct DECIMAL(5,2) NOT NULL COMMENT 'percent off the best available rate',
        plandescription VARCHAR(120) NOT NULL""",
    "guests": """
        guestid INT NOT NULL PRIMARY KEY,
        firstname VARCHAR(40) NOT NULL,
        lastname VARCHAR(40) NOT NULL,
        email VARCHAR(80) NOT NULL,
        countrycode CHAR(2) NOT NULL,
        homestate CHAR(2) NULL COMMENT 'US state of residence; NULL for guests living outside the US',
        loyaltytier TINYINT NOT NULL COMMENT 'Larkspur Rewards tier: 0 = not enrolled, 1 = Member, 2 = Silver, 3 = Gold, 4 = Platinum',
        memberssince DATE NULL COMMENT 'date the guest joined Larkspur Rewards; NULL if not enrolled',
        createdat DATETIME NOT NULL""",
    "reservations": """
        reservationid INT NOT NULL PRIMARY KEY,
        confirmationcode CHAR(10) NOT NULL,
        guestid INT NOT NULL,
        hotelid INT NOT NULL,
        roomtypeid INT NOT NULL,
        rateplanid INT NOT NULL,
        bookedat DATETIME NOT NULL,
        checkindate DATE NOT NULL,
        checkoutdate DATE NOT NULL,
        adults TINYINT NOT NULL,
        children TINYINT NOT NULL,
        nightlyrate DECIMAL(8,2) NOT NULL COMMENT 'room rate per night in USD, before tax',
        bookingchannel CHAR(2) NOT NULL COMMENT 'WB = our website/app, OT = online travel agency (Expedia, Booking.com ...), PH = phone / central reservations, CO = corporate travel desk, WI = walk-in',
        arrivalstatus CHAR(1) NULL COMMENT 'A = guest arrived, N = no-show, U = upcoming (arrival after the extract date); NULL for cancelled bookings',
        cancelledat DATETIME NULL COMMENT 'when the booking was cancelled; NULL = not cancelled',
        KEY byguest (guestid), KEY byhotel (hotelid, checkindate)""",
    "stays": """
        stayid INT NOT NULL PRIMARY KEY,
        reservationid INT NOT NULL,
        roomid INT NOT NULL,
        checkedinat DATETIME NOT NULL,
        checkedoutat DATETIME NULL COMMENT 'NULL = guest still in house at the extract date',
        KEY byreservation (reservationid)""",
    "payments": """
        paymentid INT NOT NULL PRIMARY KEY,
        reservationid INT NOT NULL,
        paidat DATETIME NOT NULL,
        amount DECIMAL(10,2) NOT NULL COMMENT 'USD; refunds are negative',
        paytype CHAR(1) NOT NULL COMMENT 'D = deposit, P = prepayment in full, S = settlement at check-out, F = no-show / late-cancellation fee, R = refund',
        paymethod CHAR(2) NOT NULL COMMENT 'CC = credit card, DB = debit card, CA = cash, VC = OTA virtual card, PT = Rewards points',
        KEY byreservation (reservationid)""",
    "guestreviews": """
        reviewid INT NOT NULL PRIMARY KEY,
        reservationid INT NOT NULL,
        guestid INT NOT NULL,
        submittedat DATETIME NOT NULL,
        overallscore TINYINT NOT NULL COMMENT '1 (worst) to 10 (best)',
        cleanlinessscore TINYINT NOT NULL COMMENT '1 to 10',
        servicescore TINYINT NOT NULL COMMENT '1 to 10',
        reviewsource CHAR(1) NOT NULL COMMENT 'S = our post-stay email survey, G = Google, T = Tripadvisor',
        KEY byreservation (reservationid)""",
}


def _poisson(rng, lam):
    if lam > 30:
        return max(0, int(round(rng.gauss(lam, math.sqrt(lam)))))
    limit, k, p = math.exp(-lam), 0, 1.0
    while True:
        p *= rng.random()
        if p <= limit:
            return k
        k += 1


def _pick(rng, pairs):
    r, acc = rng.random(), 0.0
    for value, w in pairs:
        acc += w
        if r < acc:
            return value
    return pairs[-1][0]


def _code(rng):
    alphabet = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
    return "LK" + "".join(rng.choice(alphabet) for _ in range(8))


def build():
    rng = random.Random(SEED)

    # ---- hotels, room types, rooms
    hotel_rows = [(h[0], h[1], h[2], h[3], h[4], h[5], h[10]) for h in HOTELS]
    roomtype_rows = [(t[0], t[1], t[2], t[3], t[4]) for t in ROOMTYPES]
    rooms = {}          # hotelid -> {roomtypeid: [roomid, ...]}
    room_rows = []
    roomid = 0
    for h in HOTELS:
        hid, nrooms = h[0], h[6]
        counts = [max(1, round(nrooms * t[6])) for t in ROOMTYPES]
        counts[0] += nrooms - sum(counts)
        types = [t[0] for t, c in zip(ROOMTYPES, counts) for _ in range(c)]
        rng.shuffle(types)
        floors = 3 if nrooms < 45 else 4
        per_floor = math.ceil(nrooms / floors)
        rooms[hid] = {t[0]: [] for t in ROOMTYPES}
        for i, tid in enumerate(types):
            roomid += 1
            floor = 1 + i // per_floor
            number = f"{floor}{(i % per_floor) + 1:02d}"
            room_rows.append((roomid, hid, number, tid, floor))
            rooms[hid][tid].append(roomid)
    busy = {r[0]: bytearray(GRID_DAYS) for r in room_rows}

    # ---- candidate bookings, hotel by hotel and day by day
    los_weights = [(1, 0.27), (2, 0.31), (3, 0.19), (4, 0.10), (5, 0.06), (6, 0.03), (7, 0.03), (10, 0.01)]
    type_pick = [(t[0], t[6]) for t in ROOMTYPES]
    bookings = []
    day = FIRST_DAY
    while day <= LAST_CHECKIN:
        idx = (day - FIRST_DAY).days
        for h in HOTELS:
            hid, nrooms, base, profile = h[0], h[6], h[7], h[9]
            if day < h[4]:
                continue
            occ = SEASON[profile][day.month - 1]
            if hid == 8 and day < dt.date(2024, 9, 1):          # new hotel ramps up
                occ *= 0.55 + 0.45 * (day - h[4]).days / 153
            dow = day.weekday()
            dowf = {4: 1.25, 5: 1.2, 6: 0.7}.get(dow, 0.98)
            growth = 1.0 + 0.03 * (day.year - 2023)
            lam = nrooms * occ * dowf * growth / 2.5 * 1.25
            for _ in range(_poisson(rng, lam)):
                channel = _pick(rng, CHANNELS)
                los = _pick(rng, los_weights)
                if channel == "CO":
                    los = min(los, 3)
                if channel == "WI":
                    lead = 0
                else:
                    lead = min(330, int(rng.expovariate(1 / 24)))
                booked = dt.datetime.combine(day - dt.timedelta(days=lead), dt.time()) + dt.timedelta(
                    minutes=rng.randint(6 * 60, 23 * 60 + 59))
                if channel == "WI":
                    booked = dt.datetime.combine(day, dt.time(14)) + dt.timedelta(minutes=rng.randint(0, 540))
                if booked > EXTRACT_END:
                    continue
                tid = _pick(rng, type_pick)
                # rate plan
                if channel == "CO":
                    plan = 4
                elif channel == "WI":
                    plan = 1
                else:
                    plan = _pick(rng, [(1, 0.50), (2, 0.22), (3, 0.10), (5, 0.08), (6, 0.10)])
                    if plan == 5 and dow not in (4, 5):
                        plan = 2
                refundable = RATEPLANS[plan - 1][3]
                cancel_p = CANCEL_P[channel] * (1.0 if refundable else 0.12)
                cancelled_at = None
                if rng.random() < cancel_p:
                    start = booked
                    end = dt.datetime.combine(day, dt.time(12))
                    span = max(60, int((end - start).total_seconds() // 60))
                    # most cancellations come early, some in the last days
                    frac = rng.random() ** 1.6 if rng.random() < 0.8 else 1 - rng.random() * 0.08
                    cancelled_at = start + dt.timedelta(minutes=int(span * frac))
                    if cancelled_at > EXTRACT_END:
                        cancelled_at = None
                room = None
                if cancelled_at is None:
                    order = [tid] + [t for t in (1, 2, 4) if t != tid]
                    for try_tid in order:
                        for rid in rooms[hid][try_tid]:
                            grid = busy[rid]
                            if not any(grid[idx:idx + los]):
                                room = rid
                                tid = try_tid
                                break
                        if room is not None:
                            break
                    if room is None:
                        continue            # sold out: the booking never happens
                    busy[room][idx:idx + los] = b"\x01" * los
                season = 0.8 + 0.5 * SEASON[profile][day.month - 1]
                rate = base * ROOMTYPES[tid - 1][5] * season * (1.12 if dow in (4, 5) else 1.0)
                rate *= (1 + 0.04 * (day.year - 2023)) * rng.uniform(0.9, 1.1)
                rate *= 1 - RATEPLANS[plan - 1][4] / 100
                maxg = ROOMTYPES[tid - 1][3]
                adults = 1 if channel == "CO" else _pick(rng, [(1, 0.3), (2, 0.62), (3, 0.05), (4, 0.03)])
                adults = min(adults, maxg)
                children = 0 if adults >= maxg or rng.random() > 0.18 else rng.randint(1, maxg - adults)
                bookings.append({
                    "hotel": hid, "tid": tid, "plan": plan, "booked": booked, "checkin": day,
                    "checkout": day + dt.timedelta(days=los), "adults": adults, "children": children,
                    "rate": round(rate), "channel": channel, "cancelled": cancelled_at, "room": room,
                })
        day += dt.timedelta(days=1)

    # ---- guests: walk through bookings in booking order; returning guests drawn by weight
    bookings.sort(key=lambda b: (b["booked"], b["hotel"], b["checkin"]))
    guests, cum, total = [], [], 0.0
    planted_at = None
    for _i, b in enumerate(bookings):
        returning_p = 0.62 if b["channel"] in ("CO", "WB") else 0.45
        if guests and rng.random() < returning_p:
            g = bisect.bisect_right(cum, rng.random() * total)
            g = min(g, len(guests) - 1)
        else:
            w = min(30.0, rng.paretovariate(1.25))
            if planted_at is None and b["booked"] >= dt.datetime(2023, 2, 1) and b["channel"] == "CO":
                w, planted_at = 30.0, len(guests)
            guests.append({"w": w, "created": b["booked"]})
            total += w
            cum.append(total)
            g = len(guests) - 1
        b["guest"] = g
    n_guests = len(guests)

    # nights actually stayed per guest (for tiers)
    nights = [0] * n_guests
    for b in bookings:
        if b["cancelled"] is None and b["checkin"] <= EXTRACT_DAY:
            nights[b["guest"]] += (b["checkout"] - b["checkin"]).days
    guest_rows = []
    used_names = set()
    twins = 0
    for g, info in enumerate(guests):
        n = nights[g]
        if n >= 80:
            tier = 4
        elif n >= 35:
            tier = 3
        elif n >= 15:
            tier = 2
        elif rng.random() < (0.45 if n >= 4 else 0.22):
            tier = 1
        else:
            tier = 0
        if g == planted_at:
            first, last = PLANTED_GUEST
            tier = 4
        elif twins < 2 and n >= 5 and g % 97 == 13:
            first, last = SURNAME_TWINS
            twins += 1
        else:
            while True:
                first, last = rng.choice(FIRST_NAMES), rng.choice(LAST_NAMES)
                if (first, last) not in {PLANTED_GUEST, SURNAME_TWINS}:
                    break
        base = f"{first}.{last}".lower().replace("-", "")
        k = 0
        email = base
        while email in used_names:
            k += 1
            email = f"{base}{k}"
        used_names.add(email)
        domain = rng.choice(["gmail.com", "yahoo.com", "outlook.com", "icloud.com", "aol.com", "hotmail.com"])
        intl = rng.random() < 0.07
        country = rng.choice(["CA", "MX", "GB", "DE", "FR", "AU", "JP"]) if intl else "US"
        state = None if intl else rng.choice(STATES)
        since = None
        if tier:
            since = (info["created"] - dt.timedelta(days=rng.randint(0, 400))).date()
        info.update(tier=tier, first=first, last=last)
        # review habit: about a third never review
        info["review_p"] = 0.0 if rng.random() < 0.34 else rng.uniform(0.25, 0.75)
        guest_rows.append((g + 1, first, last, f"{email}@{domain}", country, state, tier, since, info["created"]))
    assert twins == 2, twins

    # members switch some best-available bookings to the member rate
    for b in bookings:
        if b["plan"] == 1 and b["channel"] in ("WB", "PH") and guests[b["guest"]]["tier"] > 0 and rng.random() < 0.6:
            b["plan"] = 6
            b["rate"] = round(b["rate"] * 0.92)

    # ---- reservations, stays, payments, reviews
    reservation_rows, stays, payments, reviews = [], [], [], []
    for rid, b in enumerate(bookings, start=1):
        hid, g = b["hotel"], b["guest"]
        los = (b["checkout"] - b["checkin"]).days
        total_room = b["rate"] * los
        if b["cancelled"] is not None:
            status = None
        elif b["checkin"] > EXTRACT_DAY:
            status = "U"
        else:
            p = NOSHOW_P[b["channel"]] * HOTEL_NOSHOW.get(hid, 1.0)
            status = "N" if rng.random() < p else "A"
        reservation_rows.append((
            rid, _code(rng), g + 1, hid, b["tid"], b["plan"], b["booked"], b["checkin"], b["checkout"],
            b["adults"], b["children"], float(b["rate"]), b["channel"], status, b["cancelled"]))

        tier = guests[g]["tier"]
        method = _pick(rng, [("CC", 0.84), ("DB", 0.11), ("CA", 0.05)])
        if b["channel"] == "OT" and rng.random() < 0.5:
            method = "VC"
        if b["channel"] == "WI" and rng.random() < 0.3:
            method = "CA"
        if tier >= 2 and rng.random() < 0.08:
            method = "PT"
        refundable = RATEPLANS[b["plan"] - 1][3]
        arrival = dt.datetime.combine(b["checkin"], dt.time(15))
        paid = 0.0
        if not refundable:
            payments.append((rid, b["booked"] + dt.timedelta(minutes=rng.randint(0, 5)), float(total_room), "P", method))
            paid = total_room
        elif b["channel"] in ("WB", "OT", "PH") and rng.random() < 0.55:
            payments.append((rid, b["booked"] + dt.timedelta(minutes=rng.randint(0, 5)), float(b["rate"]), "D", method))
            paid = b["rate"]
        if b["cancelled"] is not None:
            if refundable and paid:
                late = (arrival - b["cancelled"]) < dt.timedelta(hours=48)
                if not late:
                    refund_at = b["cancelled"] + dt.timedelta(minutes=rng.randint(1, 90))
                    if refund_at <= EXTRACT_END:
                        payments.append((rid, refund_at, -float(paid), "R", method))
            elif refundable and (arrival - b["cancelled"]) < dt.timedelta(hours=48) and b["channel"] != "OT":
                payments.append((rid, b["cancelled"] + dt.timedelta(minutes=rng.randint(1, 60)),
                                 float(b["rate"]), "F", method))
            continue
        if status == "U":
            continue
        if status == "N":
            if refundable and not paid:
                fee_at = dt.datetime.combine(b["checkin"] + dt.timedelta(days=1), dt.time(11)) + dt.timedelta(
                    minutes=rng.randint(0, 120))
                if fee_at <= EXTRACT_END:
                    payments.append((rid, fee_at, float(b["rate"]), "F", method))
            continue
        checked_in = arrival + dt.timedelta(minutes=rng.randint(-120, 420))
        if b["channel"] == "WI":                      # walk-ins check in right after booking
            checked_in = b["booked"] + dt.timedelta(minutes=rng.randint(5, 25))
        checked_out = dt.datetime.combine(b["checkout"], dt.time(7)) + dt.timedelta(minutes=rng.randint(0, 300))
        if b["checkout"] > EXTRACT_DAY:
            checked_out = None
        stays.append((rid, b["room"], checked_in, checked_out, b["checkin"]))
        if checked_out is not None and total_room - paid > 0:
            payments.append((rid, checked_out + dt.timedelta(minutes=rng.randint(0, 20)),
                             float(total_room - paid), "S", method))
        # review
        if checked_out is not None and rng.random() < guests[g]["review_p"]:
            submitted = checked_out + dt.timedelta(hours=rng.randint(3, 24 * 14))
            if submitted <= EXTRACT_END:
                mean = HOTELS[hid - 1][8] + (0.25 if b["tid"] == 5 else 0.0) - (0.2 if b["channel"] == "OT" else 0)
                overall = max(1, min(10, round(rng.gauss(mean, 1.35))))
                clean = max(1, min(10, round(rng.gauss(overall + 0.2, 0.9))))
                service = max(1, min(10, round(rng.gauss(overall, 1.0))))
                source = _pick(rng, [("S", 0.55), ("G", 0.30), ("T", 0.15)])
                reviews.append((rid, g + 1, submitted, overall, clean, service, source))

    stays.sort(key=lambda s: (s[2], s[0]))
    stay_rows = [(i, s[0], s[1], s[2], s[3]) for i, s in enumerate(stays, start=1)]
    payments.sort(key=lambda p: (p[1], p[0]))
    payment_rows = [(i, *p) for i, p in enumerate(payments, start=1)]
    reviews.sort(key=lambda r: (r[2], r[0]))
    review_rows = [(i, *r) for i, r in enumerate(reviews, start=1)]
    rateplan_rows = [(p[0], p[1], p[2], p[3], p[4], p[5]) for p in RATEPLANS]
    return {
        "hotels": hotel_rows, "roomtypes": roomtype_rows, "rooms": room_rows, "rateplans": rateplan_rows,
        "guests": guest_rows, "reservations": reservation_rows, "stays": stay_rows,
        "payments": payment_rows, "guestreviews": review_rows,
    }


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
            comment = TABLE_COMMENTS[table].replace("'", "''")
            cur.execute(f"CREATE TABLE {table} ({columns}) ENGINE=InnoDB COMMENT='{comment}'")
        con.autocommit(False)
        for table, rows in tables.items():
            marks = ", ".join(["%s"] * len(rows[0]))
            for start in range(0, len(rows), 5000):
                cur.executemany(f"INSERT INTO {table} VALUES ({marks})", rows[start:start + 5000])
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
    print(f"loaded the synthetic Larkspur hotel chain into MariaDB database {DATABASE}:")
    _common.print_counts(counts, URL)


if __name__ == "__main__":
    main()
