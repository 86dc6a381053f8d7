#!/usr/bin/env python3
"""A synthetic Midwest freight company (Ridgeline Freight, 2023-01 .. 2025-06) on MariaDB.

    python3 load.py            # from anywhere; MariaDB/MySQL on 127.0.0.1:3306, root, no password

Drops and rebuilds database dev_freight, loads nine tables generated deterministically with
random.Random(11), and creates (or resets) the read-only login freight_reader / freight_reader.
Idempotent: the same rows on every run.

Naming: singular PascalCase table names (`Shipment`, `Depot`), camelCase columns (`shipmentId`,
`pickupDate`). Primary keys are declared, foreign keys are NOT (implied by the *Id names).
Code columns say what their codes mean only in the column COMMENT; nullable date columns whose
NULL means "not yet" say so in their COMMENT too. Table comments carry the words the business uses
("loads" for shipments, "hubs" for depots, "subcontractors" for outside carriers).

  Depot          12 cross-dock hubs in Midwest/Southern cities (Detroit opened 2024-03-04)
  Lane           origin hub -> destination hub, miles, standard transit days
  Customer       shippers: name, industry, city/state, account type code (C contract / S spot)
  Carrier        our own fleet (type O) and five subcontractors (type S)
  Driver         our own drivers: home hub, hire date, terminatedOn (NULL = still employed)
  Truck          our own tractors: unit number, home hub, type code (D/R/F), retiredOn (NULL = in service)
  Shipment       one row per load: customer, lane, carrier, driver/truck (NULL when subcontracted),
                 bookedAt, pickupDate / deliveredDate (NULL = not yet), promisedDate, status code
                 (B/T/D/C), service level code (S/X/E), weight, pallets, hazmat
  DeliveryEvent  tracking scans: PU / AH / OD / DL / EX (exception, with a reason)
  Invoice        one per delivered load: invoiceDate, totalAmount (USD), dueDate, paidDate (NULL = unpaid)

The extract is as of 2025-06-30: loads picked up in the last days of June are still in transit,
loads booked for July are still 'B' with no pickup.
"""

import datetime as dt
import math
import random
import sys
from pathlib import Path

sys.path.insert(0, str(next(p / "shared/eval/domains" for p in Path(__file__).resolve().parents
                            if (p / "shared/eval/domains").is_dir())))
import _common  # noqa: E402

DATABASE, USER = "dev_freight", "freight_reader"
URL = f"mysql://{USER}:{USER}@127.0.0.1:3306/{DATABASE}"
SEED = 11
FIRST_DAY, EXTRACT_DAY = dt.date(2023, 1, 2), dt.date(2025, 6, 30)

DDL = {
    "Depot": ("""
        depotId SMALLINT NOT NULL PRIMARY KEY,
        depotCode CHAR(3) NOT NULL COMMENT 'three-letter hub code used on labels',
        depotName VARCHAR(60) NOT NULL,
        city VARCHAR(40) NOT NULL,
        state CHAR(2) NOT NULL,
        dockDoors SMALLINT NOT NULL COMMENT 'number of loading dock doors',
        openedOn DATE NOT NULL""",
              "Depots, also called hubs: our cross-dock terminals where loads are picked up from and delivered to"),
    "Lane": ("""
        laneId SMALLINT NOT NULL PRIMARY KEY,
        originDepotId SMALLINT NOT NULL COMMENT 'hub the load leaves from (Depot.depotId)',
        destDepotId SMALLINT NOT NULL COMMENT 'hub the load is delivered from (Depot.depotId)',
        distanceMi SMALLINT NOT NULL COMMENT 'road distance in miles',
        transitDays TINYINT NOT NULL COMMENT 'standard transit time in days for a standard-service load',
        activeFrom DATE NOT NULL""",
             "Lanes (routes) we run: one origin hub to one destination hub"),
    "Customer": ("""
        customerId INT NOT NULL PRIMARY KEY,
        customerName VARCHAR(80) NOT NULL,
        industry VARCHAR(40) NOT NULL,
        city VARCHAR(40) NOT NULL,
        state CHAR(2) NOT NULL,
        accountType CHAR(1) NOT NULL COMMENT 'C = contract customer (negotiated rates), S = spot (ad-hoc quotes)',
        createdAt DATE NOT NULL COMMENT 'date the account was opened'""",
                 "Customers (shippers) who book loads with us"),
    "Carrier": ("""
        carrierId SMALLINT NOT NULL PRIMARY KEY,
        carrierName VARCHAR(60) NOT NULL,
        carrierType CHAR(1) NOT NULL COMMENT 'O = own fleet, S = subcontractor (outside carrier we hand loads to)',
        mcNumber VARCHAR(12) NOT NULL COMMENT 'FMCSA motor carrier number',
        onboardedOn DATE NOT NULL""",
                "Carriers that haul our loads: our own fleet and subcontracted trucking companies"),
    "Driver": ("""
        driverId INT NOT NULL PRIMARY KEY,
        firstName VARCHAR(30) NOT NULL,
        lastName VARCHAR(30) NOT NULL,
        homeDepotId SMALLINT NOT NULL COMMENT 'hub the driver is based at (Depot.depotId)',
        cdlClass CHAR(1) NOT NULL COMMENT 'commercial licence class: A = tractor-trailer, B = straight truck',
        hireDate DATE NOT NULL,
        terminatedOn DATE NULL COMMENT 'last day employed; NULL = still employed (active)'""",
               "Drivers employed by our own fleet (subcontractors' drivers are not recorded)"),
    "Truck": ("""
        truckId INT NOT NULL PRIMARY KEY,
        unitNumber VARCHAR(10) NOT NULL,
        homeDepotId SMALLINT NOT NULL COMMENT 'hub the truck is based at (Depot.depotId)',
        truckType CHAR(1) NOT NULL COMMENT 'D = dry van, R = reefer (refrigerated), F = flatbed',
        make VARCHAR(20) NOT NULL,
        modelYear SMALLINT NOT NULL,
        inServiceOn DATE NOT NULL,
        retiredOn DATE NULL COMMENT 'date taken out of service; NULL = still in service'""",
              "Trucks (tractor + trailer units) of our own fleet"),
    "Shipment": ("""
        shipmentId INT NOT NULL PRIMARY KEY,
        customerId INT NOT NULL,
        laneId SMALLINT NOT NULL,
        carrierId SMALLINT NOT NULL,
        driverId INT NULL COMMENT 'our driver; NULL when the load was handed to a subcontractor (or cancelled before dispatch)',
        truckId INT NULL COMMENT 'our truck; NULL when the load was handed to a subcontractor (or cancelled before dispatch)',
        bookedAt DATETIME NOT NULL COMMENT 'when the customer booked the load',
        pickupDate DATE NULL COMMENT 'actual pickup date; NULL = not picked up yet (or cancelled)',
        promisedDate DATE NOT NULL COMMENT 'delivery date promised to the customer at booking',
        deliveredDate DATE NULL COMMENT 'actual delivery date; NULL = not delivered yet',
        statusCode CHAR(1) NOT NULL COMMENT 'B = booked, awaiting pickup; T = in transit; D = delivered; C = cancelled by the customer',
        serviceLevel CHAR(1) NOT NULL COMMENT 'S = standard, X = express (guaranteed, one day faster), E = economy (one day slower, cheaper)',
        weightLb INT NOT NULL COMMENT 'gross weight in pounds',
        palletCount SMALLINT NOT NULL,
        hazmat TINYINT(1) NOT NULL COMMENT '1 = hazardous materials',
        KEY byCustomer (customerId), KEY byPickup (pickupDate)""",
                 "Shipments, a.k.a. loads: one row per load a customer booked with us"),
    "DeliveryEvent": ("""
        eventId INT NOT NULL PRIMARY KEY,
        shipmentId INT NOT NULL,
        eventCode CHAR(2) NOT NULL COMMENT 'PU = picked up, AH = arrived at destination hub, OD = out for delivery, DL = delivered, EX = exception (delay)',
        eventAt DATETIME NOT NULL,
        depotId SMALLINT NULL COMMENT 'hub where the scan happened; NULL for scans on the road',
        exceptionReason VARCHAR(40) NULL COMMENT 'why the load was delayed; only for EX events',
        KEY byShipment (shipmentId)""",
                      "Tracking scans of each load (delivery events)"),
    "Invoice": ("""
        invoiceId INT NOT NULL PRIMARY KEY,
        invoiceNumber VARCHAR(16) NOT NULL,
        shipmentId INT NOT NULL,
        customerId INT NOT NULL,
        invoiceDate DATE NOT NULL,
        totalAmount DECIMAL(10,2) NOT NULL COMMENT 'USD, freight charge incl. fuel surcharge',
        dueDate DATE NOT NULL,
        paidDate DATE NULL COMMENT 'date the customer paid; NULL = unpaid (open)'""",
                "Invoices, one per delivered load"),
}

DEPOTS = [  # id, code, name, city, state, doors, opened, lat, lon, size weight
    (1, "CHI", "Chicago South Hub", "Chicago", "IL", 120, dt.date(2008, 4, 1), 41.88, -87.63, 2.2),
    (2, "IND", "Indianapolis Hub", "Indianapolis", "IN", 80, dt.date(2010, 6, 14), 39.77, -86.16, 1.4),
    (3, "CMH", "Columbus Crossdock", "Columbus", "OH", 64, dt.date(2012, 3, 5), 39.96, -83.00, 1.1),
    (4, "CVG", "Cincinnati Hub", "Cincinnati", "OH", 70, dt.date(2011, 9, 19), 39.10, -84.51, 1.2),
    (5, "SDF", "Louisville Hub", "Louisville", "KY", 58, dt.date(2014, 2, 3), 38.25, -85.76, 1.0),
    (6, "STL", "St. Louis Gateway Hub", "St. Louis", "MO", 76, dt.date(2009, 8, 10), 38.63, -90.20, 1.3),
    (7, "MKC", "Kansas City Hub", "Kansas City", "MO", 60, dt.date(2015, 5, 18), 39.10, -94.58, 0.9),
    (8, "MEM", "Memphis Hub", "Memphis", "TN", 72, dt.date(2013, 10, 7), 35.15, -90.05, 1.1),
    (9, "BNA", "Nashville Hub", "Nashville", "TN", 56, dt.date(2016, 7, 11), 36.16, -86.78, 0.9),
    (10, "MKE", "Milwaukee Hub", "Milwaukee", "WI", 44, dt.date(2017, 4, 24), 43.04, -87.91, 0.7),
    (11, "PIT", "Pittsburgh Hub", "Pittsburgh", "PA", 50, dt.date(2018, 1, 15), 40.44, -80.00, 0.8),
    (12, "DTW", "Detroit Hub", "Detroit", "MI", 48, dt.date(2024, 3, 4), 42.33, -83.05, 1.0),
]
LATE_AT_DEST = {8: 2.2, 1: 1.2, 12: 1.3}  # Memphis deliveries run late most often
CARRIERS = [  # id, name, type, mc, onboarded, share of loads, late factor
    (1, "Ridgeline Fleet", "O", "MC-204518", dt.date(2008, 4, 1), 0.63, 0.8),
    (2, "Hawkeye Transport", "S", "MC-771203", dt.date(2016, 3, 1), 0.09, 1.0),
    (3, "Blue Ox Logistics", "S", "MC-559832", dt.date(2018, 8, 20), 0.08, 1.1),
    (4, "Red River Carriers", "S", "MC-684410", dt.date(2019, 11, 4), 0.08, 2.4),
    (5, "Lakeside Haulers", "S", "MC-902117", dt.date(2021, 2, 8), 0.07, 1.2),
    (6, "Northstar Trucking", "S", "MC-330945", dt.date(2022, 6, 27), 0.05, 0.9),
]
INDUSTRIES = [("Food & Beverage", 1.3), ("Automotive", 1.2), ("Paper & Packaging", 1.0), ("Retail", 1.1),
              ("Chemicals", 0.6), ("Building Materials", 0.8), ("Electronics", 0.6), ("Agriculture", 0.8),
              ("Furniture", 0.5), ("Pharmaceuticals", 0.4), ("Metals", 0.7)]
NAME_WORDS = {
    "Food & Beverage": ["Foods", "Bakery", "Dairy", "Snacks", "Beverages", "Provisions", "Meats"],
    "Automotive": ["Auto Parts", "Motor Components", "Axle", "Brake Systems", "Automotive"],
    "Paper & Packaging": ["Paper", "Packaging", "Corrugated", "Containers", "Box"],
    "Retail": ["Outfitters", "Home Goods", "Supply", "Mercantile", "General Store"],
    "Chemicals": ["Chemicals", "Coatings", "Solvents", "Polymers"],
    "Building Materials": ["Lumber", "Building Supply", "Roofing", "Concrete Products", "Tile"],
    "Electronics": ["Electronics", "Circuits", "Appliances", "Lighting"],
    "Agriculture": ["Seed", "Farm Supply", "Feed", "Orchards", "Ag Products"],
    "Furniture": ["Furniture", "Cabinetry", "Mattress", "Woodworks"],
    "Pharmaceuticals": ["Pharma", "Labs", "Medical Supply"],
    "Metals": ["Steel", "Metal Works", "Wire", "Castings", "Fasteners"],
}
PREFIXES = ["Great Lakes", "Buckeye", "Prairie", "Heartland", "Riverbend", "Ozark", "Hoosier", "Summit",
            "Keystone", "Gateway", "Bluegrass", "Lakeshore", "Cumberland", "Maumee", "Wabash", "Cardinal",
            "Ironwood", "Sycamore", "Blue Ridge", "Mississippi", "Osage", "Allegheny", "Badger", "Volunteer",
            "Pioneer", "Liberty", "Frontier", "Harbor", "Fairview", "Oakmont", "Cedar Creek", "Red Oak",
            "Silver Lake", "Twin Rivers", "Northfield", "Westgate", "Eastwood", "Lincoln", "Jefferson",
            "Hamilton", "Franklin", "Clark", "Kenwood", "Brookside", "Stonebridge", "Meridian", "Crescent",
            "Aurora", "Elk Grove", "Pine Valley", "Greenfield", "Highland", "Madison", "Monroe", "Shelby"]
SUFFIXES = ["Co.", "Inc.", "LLC", "Group", "Corp.", "Partners", "Company", "Industries", ""]
CUSTOMER_CITIES = {  # near each depot
    1: [("Chicago", "IL"), ("Chicago", "IL"), ("Joliet", "IL"), ("Aurora", "IL"), ("Elgin", "IL"), ("Gary", "IN")],
    2: [("Indianapolis", "IN"), ("Indianapolis", "IN"), ("Carmel", "IN"), ("Lafayette", "IN"), ("Muncie", "IN")],
    3: [("Columbus", "OH"), ("Columbus", "OH"), ("Dublin", "OH"), ("Newark", "OH"), ("Marion", "OH")],
    4: [("Cincinnati", "OH"), ("Cincinnati", "OH"), ("Dayton", "OH"), ("Covington", "KY"), ("Hamilton", "OH")],
    5: [("Louisville", "KY"), ("Louisville", "KY"), ("Lexington", "KY"), ("Elizabethtown", "KY")],
    6: [("St. Louis", "MO"), ("St. Louis", "MO"), ("Belleville", "IL"), ("St. Charles", "MO")],
    7: [("Kansas City", "MO"), ("Kansas City", "KS"), ("Olathe", "KS"), ("Lawrence", "KS")],
    8: [("Memphis", "TN"), ("Memphis", "TN"), ("Southaven", "MS"), ("Jackson", "TN")],
    9: [("Nashville", "TN"), ("Nashville", "TN"), ("Murfreesboro", "TN"), ("Franklin", "TN")],
    10: [("Milwaukee", "WI"), ("Milwaukee", "WI"), ("Racine", "WI"), ("Waukesha", "WI")],
    11: [("Pittsburgh", "PA"), ("Pittsburgh", "PA"), ("Butler", "PA"), ("Greensburg", "PA")],
    12: [("Detroit", "MI"), ("Detroit", "MI"), ("Dearborn", "MI"), ("Troy", "MI"), ("Flint", "MI")],
}
FIRST = ["James", "Robert", "Michael", "William", "David", "Richard", "Joseph", "Thomas", "Charles", "Chris",
         "Daniel", "Matthew", "Anthony", "Mark", "Donald", "Steven", "Paul", "Andrew", "Joshua", "Kevin",
         "Brian", "George", "Timothy", "Ronald", "Jason", "Edward", "Jeffrey", "Ryan", "Jacob", "Gary",
         "Nicholas", "Eric", "Jonathan", "Larry", "Justin", "Scott", "Brandon", "Benjamin", "Samuel",
         "Gregory", "Frank", "Raymond", "Patrick", "Dennis", "Tyler", "Aaron", "Jose", "Carlos", "Luis",
         "Miguel", "Darnell", "Tremaine", "Maria", "Linda", "Patricia", "Jennifer", "Angela", "Tonya",
         "Michelle", "Kimberly", "Lisa", "Denise", "Rosa", "Keisha", "Wanda", "Dmitri", "Ivan", "Tomasz"]
LAST = ["Smith", "Johnson", "Williams", "Brown", "Jones", "Garcia", "Miller", "Davis", "Rodriguez",
        "Martinez", "Hernandez", "Lopez", "Wilson", "Anderson", "Thomas", "Taylor", "Moore", "Jackson",
        "Martin", "Lee", "Thompson", "White", "Harris", "Clark", "Lewis", "Robinson", "Walker", "Young",
        "Allen", "King", "Wright", "Scott", "Hill", "Green", "Adams", "Baker", "Nelson", "Carter",
        "Mitchell", "Roberts", "Turner", "Phillips", "Campbell", "Parker", "Evans", "Edwards", "Collins",
        "Stewart", "Morris", "Murphy", "Cook", "Rogers", "Kowalski", "Nowak", "Schmidt", "Becker",
        "Sullivan", "O'Connor", "Washington", "Jefferson", "Brooks", "Hayes", "Price", "Bennett", "Reed"]
TRUCK_MAKES = ["Freightliner", "Freightliner", "Kenworth", "Peterbilt", "Volvo", "International", "Mack"]
EX_REASONS = ["Weather", "Mechanical breakdown", "Traffic", "Consignee closed", "Missed linehaul",
              "Address issue", "Hours-of-service limit"]


def miles(a, b):
    lat1, lon1, lat2, lon2 = map(math.radians, (a[7], a[8], b[7], b[8]))
    h = math.sin((lat2 - lat1) / 2) ** 2 + math.cos(lat1) * math.cos(lat2) * math.sin((lon2 - lon1) / 2) ** 2
    return 3958.8 * 2 * math.asin(math.sqrt(h)) * 1.18  # road factor


def day_at(day, hour_lo, hour_hi, r):
    return dt.datetime.combine(day, dt.time(0, 0)) + dt.timedelta(minutes=r.randint(hour_lo * 60, hour_hi * 60 - 1))


def build():
    r = random.Random(SEED)
    depots = [d[:7] for d in DEPOTS]
    opened = {d[0]: max(d[6], FIRST_DAY) for d in DEPOTS}

    # lanes: every hub pair whose distance is at most 640 miles, plus Chicago to everywhere
    lanes, lane_info = [], []
    lid = 0
    for a in DEPOTS:
        for b in DEPOTS:
            if a[0] == b[0]:
                continue
            d = miles(a, b)
            if d > 640 and 1 not in (a[0], b[0]):
                continue
            lid += 1
            transit = 1 if d <= 300 else (2 if d <= 600 else 3)
            active = max(opened[a[0]], opened[b[0]])
            lanes.append((lid, a[0], b[0], int(round(d)), transit, active))
            lane_info.append(dict(id=lid, o=a[0], d=b[0], mi=int(round(d)), transit=transit, active=active,
                                  w=a[9] * b[9] * (1.6 if d < 350 else 1.0)))

    # customers
    customers, cust_info, used = [], [], set()
    cid = 0
    specials = [("TriState Beverage", "Food & Beverage", 4, 45.0), ("Midwest Grain Co.", "Agriculture", 7, 14.0),
                ("Midwest Grain Partners", "Agriculture", 6, 9.0), ("Great Lakes Paper Co.", "Paper & Packaging", 10, 30.0)]
    for name, ind, home, w in specials:
        cid += 1
        used.add(name)
        city, state = CUSTOMER_CITIES[home][0]
        created = dt.date(2015, 1, 1) + dt.timedelta(days=r.randint(0, 2500))
        customers.append((cid, name, ind, city, state, "C", created))
        cust_info.append(dict(id=cid, home=home, w=w, created=created, ghost=False))
    depot_weights = [d[9] for d in DEPOTS]
    while cid < 860:
        ind = r.choices([i for i, _ in INDUSTRIES], weights=[w for _, w in INDUSTRIES])[0]
        name = f"{r.choice(PREFIXES)} {r.choice(NAME_WORDS[ind])} {r.choice(SUFFIXES)}".strip()
        if name in used or name.startswith("Great Lakes Paper"):
            continue
        used.add(name)
        cid += 1
        home = r.choices([d[0] for d in DEPOTS], weights=depot_weights)[0]
        city, state = r.choice(CUSTOMER_CITIES[home])
        acct = "C" if r.random() < 0.35 else "S"
        if home == 12:
            created = dt.date(2024, 2, 1) + dt.timedelta(days=r.randint(0, 480))
        elif r.random() < 0.7:
            created = dt.date(2012, 1, 1) + dt.timedelta(days=r.randint(0, 4000))
        else:
            created = FIRST_DAY + dt.timedelta(days=r.randint(0, (EXTRACT_DAY - FIRST_DAY).days - 20))
        customers.append((cid, name, ind, city, state, acct, created))
        cust_info.append(dict(id=cid, home=home, created=created, ghost=r.random() < 0.035,
                              w=min(30.0, r.lognormvariate(0, 1.1) * (2.5 if acct == "C" else 1.0))))

    carriers = [c[:5] for c in CARRIERS]
    late_carrier = {c[0]: c[6] for c in CARRIERS}

    # drivers: a pool per hub, some leave, some join; a few active ones on long leave in 2025
    drivers, drv_info = [], []
    did = 0
    names_used = set()
    for d in DEPOTS:
        n_start = int(round(20 * d[9])) if d[0] != 12 else 0
        n_join = int(round(5 * d[9])) + (20 if d[0] == 12 else 0)
        for k in range(n_start + n_join):
            while True:
                fn, ln = r.choice(FIRST), r.choice(LAST)
                if (fn, ln) not in names_used:
                    names_used.add((fn, ln))
                    break
            did += 1
            if d[0] == 12:
                hired = opened[12] - dt.timedelta(days=r.randint(0, 40)) if k < 18 else \
                    dt.date(2024, 5, 1) + dt.timedelta(days=r.randint(0, 400))
            elif k < n_start:
                hired = dt.date(2006, 1, 1) + dt.timedelta(days=r.randint(0, 6100))
            else:
                hired = FIRST_DAY + dt.timedelta(days=r.randint(30, 840))
            term = None
            if r.random() < 0.14 and hired < dt.date(2024, 10, 1):
                term = max(hired, FIRST_DAY) + dt.timedelta(days=r.randint(60, 800))
                if term >= EXTRACT_DAY:
                    term = None
            cdl = "A" if r.random() < 0.88 else "B"
            drivers.append((did, fn, ln, d[0], cdl, hired, term))
            drv_info.append(dict(id=did, depot=d[0], hired=hired, term=term, leave=False))
    # six still-employed drivers who took no loads after 2024 (long-term leave)
    cand = [x for x in drv_info if x["term"] is None and x["hired"] < dt.date(2023, 6, 1)]
    for x in r.sample(cand, 6):
        x["leave"] = True

    # trucks
    trucks, truck_info = [], []
    tid = 0
    for d in DEPOTS:
        n = int(round(17 * d[9])) + (15 if d[0] == 12 else 0)
        for _k in range(n):
            tid += 1
            ttype = r.choices("DRF", weights=[62, 24, 14] if d[0] not in (8, 4) else [50, 38, 12])[0]
            if d[0] == 12:
                start = opened[12] - dt.timedelta(days=r.randint(0, 20))
            elif r.random() < 0.2:
                start = FIRST_DAY + dt.timedelta(days=r.randint(0, 800))
            else:
                start = dt.date(2016, 1, 1) + dt.timedelta(days=r.randint(0, 2500))
            retired = None
            if start < dt.date(2021, 1, 1) and r.random() < 0.22:
                retired = FIRST_DAY + dt.timedelta(days=r.randint(10, 880))
            my = min(start.year, start.year - r.choice([0, 0, 1]))
            trucks.append((tid, f"RF{2100 + tid}", d[0], ttype,
                           r.choice(TRUCK_MAKES), my, start, retired))
            truck_info.append(dict(id=tid, depot=d[0], start=start, retired=retired))

    drv_by_depot = {d[0]: [x for x in drv_info if x["depot"] == d[0]] for d in DEPOTS}
    trk_by_depot = {d[0]: [x for x in truck_info if x["depot"] == d[0]] for d in DEPOTS}

    # shipments, events, invoices
    shipments, events, invoices = [], [], []
    sid = eid = iid = 0
    cust_sorted = sorted((c for c in cust_info if not c["ghost"]), key=lambda c: c["id"])
    lane_by_origin = {d[0]: [ln for ln in lane_info if ln["o"] == d[0]] for d in DEPOTS}
    rate_per_mile = {2023: 2.55, 2024: 2.48, 2025: 2.62}
    day = FIRST_DAY
    last_booking = EXTRACT_DAY
    stuck_left = 9
    while day <= last_booking:
        wd = day.weekday()
        season = 1.0 + 0.22 * math.cos((day.timetuple().tm_yday - 320) / 365.25 * 2 * math.pi)
        growth = 1.0 + 0.075 * ((day - FIRST_DAY).days / 365.25)
        base = 52 if wd < 5 else (9 if wd == 5 else 3)
        n = max(0, int(r.gauss(base * season * growth, 4) + 0.5))
        eligible = [c for c in cust_sorted if c["created"] <= day]
        cw = [c["w"] for c in eligible]
        picks = r.choices(eligible, weights=cw, k=n)
        for c in picks:
            # the origin: mostly the customer's home hub
            origin = c["home"] if r.random() < 0.8 else r.choices([d[0] for d in DEPOTS], weights=depot_weights)[0]
            opts = [ln for ln in lane_by_origin[origin] if ln["active"] <= day]
            if not opts:
                opts = [ln for ln in lane_by_origin[1] if ln["active"] <= day]
            lane = r.choices(opts, weights=[ln["w"] for ln in opts])[0]
            booked_at = day_at(day, 6, 20, r)
            service = r.choices("SXE", weights=[70, 16, 14])[0]
            planned_pu = day + dt.timedelta(days=r.choices([0, 1, 2, 3, 5], weights=[10, 45, 25, 12, 8])[0])
            if planned_pu.weekday() == 6:
                planned_pu += dt.timedelta(days=1)
            tdays = max(1, lane["transit"] + {"S": 0, "X": -1, "E": 1}[service])
            promised = planned_pu + dt.timedelta(days=tdays)
            # carrier
            sub_share = 0.37 + (0.06 if lane["mi"] > 500 else 0.0)
            if r.random() < sub_share:
                carrier = r.choices([2, 3, 4, 5, 6], weights=[c[5] for c in CARRIERS[1:]])[0]
            else:
                carrier = 1
            cancelled = r.random() < 0.032
            pickup = None
            if not cancelled:
                pickup = planned_pu + dt.timedelta(days=r.choices([0, 1, 2], weights=[88, 10, 2])[0])
                if pickup > EXTRACT_DAY:
                    pickup = None
            # driver/truck for own-fleet loads (picked up or not: assigned at dispatch)
            driver = truck = None
            when = pickup or planned_pu
            if carrier == 1 and not cancelled:
                pool = [x for x in drv_by_depot[lane["o"]] if x["hired"] <= when
                        and (x["term"] is None or x["term"] >= when)
                        and not (x["leave"] and when >= dt.date(2025, 1, 1))]
                tpool = [x for x in trk_by_depot[lane["o"]] if x["start"] <= when
                         and (x["retired"] is None or x["retired"] >= when)]
                if pool and tpool:
                    driver = r.choice(pool)["id"]
                    truck = r.choice(tpool)["id"]
                else:
                    carrier = 2
            # delivery
            delivered = None
            delay = 0
            if pickup is not None:
                month = pickup.month
                winter = 1.8 if month in (12, 1, 2) else 1.0
                p_late = 0.05 * late_carrier[carrier] * LATE_AT_DEST.get(lane["d"], 1.0) * winter \
                    * (1.3 if service == "X" else 1.0)
                if r.random() < p_late:
                    delay = r.choices([1, 2, 3, 4], weights=[60, 25, 10, 5])[0]
                elif r.random() < 0.3:
                    delay = -1 if tdays > 1 else 0  # early
                actual = tdays + delay + (pickup - planned_pu).days * (0 if r.random() < 0.6 else 1)
                actual = max(1, actual)
                delivered = pickup + dt.timedelta(days=actual)
                if delivered > EXTRACT_DAY:
                    delivered = None
                elif stuck_left and day.year == 2025 and day.month in (2, 3, 4) and r.random() < 0.004:
                    delivered = None  # held at a hub, still open
                    stuck_left -= 1
            if cancelled:
                status = "C"
            elif pickup is None:
                status = "B"
            elif delivered is None:
                status = "T"
            else:
                status = "D"
            hazmat = 1 if r.random() < (0.05 if c["id"] % 7 else 0.3) else 0
            pallets = r.choices([2, 4, 6, 8, 10, 12, 14, 18, 22, 26], weights=[5, 8, 10, 12, 12, 12, 10, 12, 10, 9])[0]
            weight = int(pallets * r.uniform(700, 1650))
            sid += 1
            shipments.append((sid, c["id"], lane["id"], carrier, driver, truck, booked_at, pickup, promised,
                              delivered, status, service, weight, pallets, hazmat))
            # events
            if pickup is not None:
                eid += 1
                events.append((eid, sid, "PU", day_at(pickup, 6, 17, r), lane["o"], None))
                if delay > 0 or (delivered is None and status == "T" and pickup < dt.date(2025, 6, 20)) \
                        or r.random() < 0.025:
                    if delay > 0 and r.random() < 0.25:
                        pass  # late without an exception scan
                    else:
                        month = pickup.month
                        wts = [30 if month in (12, 1, 2) else 6, 14, 18, 8, 12, 6, 9]
                        reason = r.choices(EX_REASONS, weights=wts)[0]
                        ex_day = pickup + dt.timedelta(days=r.randint(0, max(0, (delivered - pickup).days - 1))) \
                            if delivered else pickup + dt.timedelta(days=1)
                        eid += 1
                        events.append((eid, sid, "EX", day_at(ex_day, 0, 24, r), None, reason))
                if delivered is not None:
                    eid += 1
                    events.append((eid, sid, "AH", day_at(delivered, 1, 5, r), lane["d"], None))
                    eid += 1
                    events.append((eid, sid, "OD", day_at(delivered, 6, 8, r), lane["d"], None))
                    eid += 1
                    events.append((eid, sid, "DL", day_at(delivered, 9, 18, r), None, None))
                elif pickup + dt.timedelta(days=tdays) <= EXTRACT_DAY:
                    eid += 1
                    events.append((eid, sid, "AH", day_at(pickup + dt.timedelta(days=tdays), 1, 5, r), lane["d"], None))
            # invoice
            if delivered is not None:
                inv_day = delivered + dt.timedelta(days=r.choices([0, 1, 2, 3], weights=[30, 40, 20, 10])[0])
                if inv_day <= EXTRACT_DAY:
                    rate = rate_per_mile[inv_day.year] * max(lane["mi"], 120)
                    amount = rate * (0.45 + 0.055 * pallets) * {"S": 1.0, "X": 1.38, "E": 0.84}[service]
                    amount *= r.uniform(0.92, 1.1) * (1.12 if hazmat else 1.0)
                    amount = round(amount + 85, 2)
                    terms = 30 if r.random() < 0.7 else 45
                    due = inv_day + dt.timedelta(days=terms)
                    slow = 1.0 + (c["id"] % 5) * 0.08
                    paid = inv_day + dt.timedelta(days=max(3, int(r.gauss(terms * slow - 2, 9))))
                    if paid > EXTRACT_DAY or r.random() < 0.012:
                        paid = None
                    iid += 1
                    invoices.append((iid, f"INV-{inv_day.year}-{iid:06d}", sid, c["id"], inv_day,
                                     amount, due, paid))
        day += dt.timedelta(days=1)

    return {"Depot": depots, "Lane": lanes, "Customer": customers, "Carrier": carriers, "Driver": drivers,
            "Truck": trucks, "Shipment": shipments, "DeliveryEvent": events, "Invoice": invoices}


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
        for table, (columns, comment) in DDL.items():
            cur.execute(f"CREATE TABLE {table} ({columns}) ENGINE=InnoDB COMMENT=%s", (comment,))
        con.autocommit(False)
        for table, rows in tables.items():
            marks = ", ".join(["%s"] * len(rows[0]))
            for i in range(0, len(rows), 5000):
                cur.executemany(f"INSERT INTO {table} VALUES ({marks})", rows[i:i + 5000])
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
    print(f"loaded the synthetic freight company into MariaDB database {DATABASE}:")
    _common.print_counts(counts, URL)


if __name__ == "__main__":
    main()
