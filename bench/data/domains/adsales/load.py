#!/usr/bin/env python3
"""A digital advertising agency's reporting warehouse (2024-01-01 .. 2025-03-11) on PostgreSQL, schema `adops`.

    python3 load.py            # from anywhere; PostgreSQL on 127.0.0.1:5432, user postgres (trust)

Creates database dev_adsales if missing, drops and rebuilds schema "adops", loads eight tables
generated deterministically with random.Random(41), and creates (or resets) the read-only login
role adsales_reader / adsales_reader. Idempotent: the same rows on every run.

Extract date: 2025-03-12 (the nightly load of that morning). Delivery stats run to 2025-03-11, the
last complete day; "this year" = 2025-01-01 .. 2025-03-11, "last month" = February 2025,
"last year" = 2024. History before 2024-01-01 was not migrated into this warehouse.

Three sources meet here, each with its own naming, and NO foreign keys are declared (primary keys only):
  - the CRM (snake_case): advertisers, account_managers, budgets, invoices
  - the ad-platform API sync (camelCase, quoted): "Campaigns", "AdGroups"; its ads table is snake_case
  - the nightly delivery export (abbreviated): ad_daily_stats (impr, clk, cost_micros, conv, ...)

  adops.advertisers       one row per advertiser account: clients AND two internal test accounts
                          (is_test); churned_on NULL = still a client; vertical is free text
                          ('E-commerce' and 'Ecommerce' are the same thing, typed by different people)
  adops.account_managers  agency staff who own client relationships (two different people are
                          both called Alex Kim: one on the Search team, one on Paid Social)
  adops."Campaigns"       platform campaigns: "channelType" code (SRCH/SHOP/SOC/DISP/VID), status
                          ENABLED/PAUSED/REMOVED (REMOVED = soft-deleted, history kept); a campaign
                          past its "endDate" no longer serves even while ENABLED
  adops."AdGroups"        ad groups within campaigns
  adops.ads               creatives; ad_format code (RSA/ETA/PLA/IMG/CAR/VID/RDA)
  adops.ad_daily_stats    one row per ad per day with delivery; money in micros (1 USD = 1,000,000);
                          conv is fractional (data-driven attribution); campaign_name is the name the
                          campaign had ON THAT DAY (one campaign was renamed on 2024-07-01), and
                          several advertisers use the same campaign names ("Brand Search" ...).
                          Metric definitions (CTR, CPC, CVR, CPA, ROAS) live in the table comment.
  adops.budgets           monthly insertion-order budgets per advertiser, month as text 'YYYY-MM',
                          in USD (not micros); a budget changed mid-month gets a new revision row:
                          the highest revision is the one in force
  adops.invoices          one invoice per client per month of spend (media + management fee);
                          status S sent / P paid / V void (voided ones were re-issued under a new number)
"""

import calendar
import datetime as dt
import math
import random
import sys
from pathlib import Path

sys.path.insert(0, str(next(p / "shared/eval/domains" for p in Path(__file__).resolve().parents
                            if (p / "shared/eval/domains").is_dir())))  # the shared eval loaders' helpers
import _common  # noqa: E402

DATABASE, SCHEMA, ROLE = "dev_adsales", "adops", "adsales_reader"
URL = "postgresql://adsales_reader:adsales_reader@127.0.0.1:5432/dev_adsales"
SEED = 41
EXTRACT_DAY = dt.date(2025, 3, 12)          # "today" for the data
FIRST_DAY, LAST_DAY = dt.date(2024, 1, 1), dt.date(2025, 3, 11)   # delivery stats cover these days
MICROS = 1_000_000

DDL = [
    """CREATE TABLE adops.account_managers (
        am_id integer PRIMARY KEY,
        am_name varchar(60) NOT NULL,
        team varchar(30) NOT NULL,
        email varchar(80) NOT NULL,
        start_date date NOT NULL)""",
    """CREATE TABLE adops.advertisers (
        advertiser_id integer PRIMARY KEY,
        advertiser_name varchar(80) NOT NULL,
        vertical varchar(40) NOT NULL,
        hq_country char(2) NOT NULL,
        account_manager_id integer,
        mgmt_fee_pct numeric(4, 1),
        payment_terms_days smallint,
        is_test boolean NOT NULL DEFAULT false,
        signed_on date NOT NULL,
        churned_on date)""",
    """CREATE TABLE adops."Campaigns" (
        "campaignId" bigint PRIMARY KEY,
        "advertiserId" integer NOT NULL,
        "campaignName" varchar(120) NOT NULL,
        "channelType" varchar(4) NOT NULL,
        "biddingStrategy" varchar(20) NOT NULL,
        "dailyBudgetMicros" bigint NOT NULL,
        "startDate" date NOT NULL,
        "endDate" date,
        "status" varchar(8) NOT NULL,
        "createdAt" timestamp NOT NULL)""",
    """CREATE TABLE adops."AdGroups" (
        "adGroupId" bigint PRIMARY KEY,
        "campaignId" bigint NOT NULL,
        "adGroupName" varchar(120) NOT NULL,
        "status" varchar(8) NOT NULL,
        "cpcBidMicros" bigint)""",
    """CREATE TABLE adops.ads (
        ad_id bigint PRIMARY KEY,
        ad_group_id bigint NOT NULL,
        ad_format varchar(5) NOT NULL,
        headline varchar(120) NOT NULL,
        ad_status varchar(8) NOT NULL,
        created_on date NOT NULL)""",
    """CREATE TABLE adops.ad_daily_stats (
        stat_date date NOT NULL,
        ad_id bigint NOT NULL,
        campaign_id bigint NOT NULL,
        campaign_name varchar(120) NOT NULL,
        impr integer NOT NULL,
        clk integer NOT NULL,
        cost_micros bigint NOT NULL,
        conv numeric(10, 2) NOT NULL,
        conv_value_micros bigint NOT NULL,
        vt_conv integer NOT NULL,
        PRIMARY KEY (stat_date, ad_id))""",
    """CREATE TABLE adops.budgets (
        advertiser_id integer NOT NULL,
        io_month char(7) NOT NULL,
        revision smallint NOT NULL,
        budget_usd numeric(12, 2) NOT NULL,
        entered_at timestamp NOT NULL,
        PRIMARY KEY (advertiser_id, io_month, revision))""",
    """CREATE TABLE adops.invoices (
        invoice_no varchar(12) PRIMARY KEY,
        advertiser_id integer NOT NULL,
        billing_month date NOT NULL,
        media_spend_usd numeric(12, 2) NOT NULL,
        mgmt_fee_usd numeric(12, 2) NOT NULL,
        total_usd numeric(12, 2) NOT NULL,
        issued_on date NOT NULL,
        due_on date NOT NULL,
        paid_on date,
        status char(1) NOT NULL)""",
]
TABLE_COMMENTS = {
    "account_managers": "Agency staff who own client relationships",
    "advertisers": "Advertiser accounts we run media for (CRM). Includes internal test accounts, see is_test",
    '"Campaigns"': "Campaigns as synced from the ad platforms' APIs",
    '"AdGroups"': "Ad groups within campaigns (platform sync)",
    "ads": "Ad creatives within ad groups (platform sync)",
    "ad_daily_stats": (
        "Daily delivery per ad, from the platforms' nightly export; a row only for days the ad served. "
        "Money columns are in micros (1 USD = 1,000,000 micros). Report metrics: CTR = clk / impr; "
        "CPC = cost / clk; CVR (conversion rate) = conv / clk; CPA (cost per acquisition) = cost / conv; "
        "ROAS = conv_value / cost. Spend = cost."),
    "budgets": "Monthly insertion-order (IO) budgets agreed with each client, all channels together",
    "invoices": "Client invoices: one per client and month of media spend, media at cost plus our management fee",
}
COLUMN_COMMENTS = {
    ("account_managers", "team"): "Search, Paid Social or Programmatic",
    ("advertisers", "vertical"): "industry of the client, free text",
    ("advertisers", "account_manager_id"): "account_managers.am_id; NULL for internal accounts",
    ("advertisers", "mgmt_fee_pct"): "agency management fee as a percent of media spend",
    ("advertisers", "payment_terms_days"): "invoice due this many days after it is issued (Net 30, Net 45)",
    ("advertisers", "is_test"): ("TRUE = internal test / sandbox account (QA, pixel and tag checks): not a client, "
                                 "never billed; exclude from all client reporting"),
    ("advertisers", "signed_on"): "date the client's contract was signed",
    ("advertisers", "churned_on"): "last day as a client; NULL = current client",
    ('"Campaigns"', '"advertiserId"'): "advertisers.advertiser_id",
    ('"Campaigns"', '"campaignName"'): "current name of the campaign (names are not unique across advertisers)",
    ('"Campaigns"', '"channelType"'): "SRCH = paid search, SHOP = shopping, SOC = paid social, DISP = display, VID = online video",
    ('"Campaigns"', '"biddingStrategy"'): "MANUAL_CPC, MAX_CONV, TARGET_CPA, TARGET_ROAS or CPM",
    ('"Campaigns"', '"dailyBudgetMicros"'): "platform daily budget cap in micros (1 USD = 1,000,000)",
    ('"Campaigns"', '"endDate"'): ("last day the campaign may serve; NULL = runs until stopped. A campaign past its "
                                   "endDate no longer serves even when its status is still ENABLED"),
    ('"Campaigns"', '"status"'): "ENABLED, PAUSED, or REMOVED (deleted in the platform; history kept)",
    ('"AdGroups"', '"campaignId"'): '"Campaigns"."campaignId"',
    ('"AdGroups"', '"cpcBidMicros"'): "manual max CPC bid in micros; NULL = automated bidding",
    ("ads", "ad_group_id"): '"AdGroups"."adGroupId"',
    ("ads", "ad_format"): ("RSA = responsive search ad, ETA = expanded text ad (legacy), PLA = product listing ad, "
                           "IMG = single image, CAR = carousel, VID = video, RDA = responsive display ad"),
    ("ads", "ad_status"): "ENABLED, PAUSED or REMOVED",
    ("ad_daily_stats", "ad_id"): "ads.ad_id",
    ("ad_daily_stats", "campaign_id"): '"Campaigns"."campaignId"',
    ("ad_daily_stats", "campaign_name"): "campaign name as reported by the platform on stat_date",
    ("ad_daily_stats", "impr"): "impressions",
    ("ad_daily_stats", "clk"): "clicks",
    ("ad_daily_stats", "cost_micros"): "media cost in micros of USD (divide by 1,000,000 for dollars)",
    ("ad_daily_stats", "conv"): "conversions (click-through), fractional under data-driven attribution",
    ("ad_daily_stats", "conv_value_micros"): "value of the conversions in micros of USD; 0 for lead-gen clients",
    ("ad_daily_stats", "vt_conv"): "view-through conversions (not included in conv)",
    ("budgets", "io_month"): "month of the budget, 'YYYY-MM'",
    ("budgets", "revision"): "1 = original IO; a change mid-month adds revision 2, 3 ...: the highest revision is in force",
    ("budgets", "budget_usd"): "monthly budget in USD for all channels",
    ("invoices", "billing_month"): "first day of the month of media spend billed",
    ("invoices", "total_usd"): "media_spend_usd + mgmt_fee_usd",
    ("invoices", "status"): "S = sent, awaiting payment; P = paid; V = void (cancelled and re-issued under a new number)",
    ("invoices", "paid_on"): "date payment was received; NULL unless paid",
}

MANAGERS = [  # id, name, team, start
    (1, "Priya Nair", "Search", dt.date(2018, 4, 2)),
    (2, "Jordan Blake", "Search", dt.date(2019, 8, 19)),
    (3, "Alex Kim", "Search", dt.date(2020, 1, 6)),
    (4, "Marcus Webb", "Search", dt.date(2021, 3, 15)),
    (5, "Dana Ortiz", "Paid Social", dt.date(2019, 11, 4)),
    (6, "Sam Patel", "Programmatic", dt.date(2020, 6, 1)),
    (7, "Alex Kim", "Paid Social", dt.date(2022, 9, 12)),
    (8, "Leah Goldberg", "Paid Social", dt.date(2021, 10, 25)),
]
EMAILS = {1: "pnair", 2: "jblake", 3: "akim", 4: "mwebb", 5: "dortiz", 6: "spatel", 7: "alex.kim", 8: "lgoldberg"}

# id, name, vertical, country, am, fee %, terms, signed, churned, monthly base budget (k USD), abbr (None =
# plain campaign names), avg order value (0 = lead gen), days to pay (median)
ADVERTISERS = [
    (1001, "Brightside Mattress Co.", "E-commerce", "US", 1, 12, 30, "2021-05-10", None, 150, "BSM", 1100, 24),
    (1002, "Harbor Dental Group", "Healthcare", "US", 2, 15, 30, "2022-02-01", None, 35, "HDG", 0, 21),
    (1003, "Northwind Outdoor Supply", "E-commerce", "US", 3, 10, 45, "2020-09-14", None, 210, None, 140, 38),
    (1004, "Crestline Auto Group", "Automotive", "US", 4, 12, 30, "2021-11-01", None, 90, "CAG", 0, 64),
    (1005, "Lumen Learning Academy", "Education", "US", 5, 15, 30, "2023-01-09", None, 40, None, 0, 27),
    (1006, "Pinecrest Credit Union", "Finance", "US", 2, 12, 30, "2022-06-20", None, 60, "PCU", 0, 18),
    (1007, "Atlas Travel Co.", "Travel", "US", 6, 12, 30, "2021-03-01", None, 70, None, 1800, 29),
    (1008, "Meridian Home Services", "Home Services", "US", 7, 15, 30, "2022-04-04", None, 45, None, 0, 33),
    (1009, "Quantum Ledger", "B2B SaaS", "US", 8, 10, 45, "2023-03-15", None, 110, "QL", 0, 41),
    (1010, "Fresh Fork Meal Kits", "Ecommerce", "US", 7, 12, 30, "2024-04-01", None, 95, None, 75, 26),
    (1011, "Velvet & Vine Boutique", "Ecommerce", "US", 6, 14, 30, "2024-09-02", None, 30, None, 90, 19),
    (1012, "Summit Physical Therapy", "Healthcare", "US", 5, 15, 30, "2022-08-08", None, 18, None, 0, 22),
    (1013, "Greenleaf Organics", "E-commerce", "CA", 1, 12, 30, "2021-07-19", None, 75, "GLO", 60, 30),
    (1014, "Ironclad Insurance Partners", "Finance", "US", 4, 10, 30, "2020-01-06", "2024-10-31", 120, "IIP", 0, 35),
    (1015, "Copperline Coffee Roasters", "E-commerce", "US", 3, 12, 30, "2022-10-03", None, 28, None, 38, 17),
    (1016, "Redwood Legal Services", "Professional Services", "US", 8, 15, 30, "2023-05-22", None, 22, None, 0, 28),
    (1017, "Bluewave Swim Schools", "Education", "US", 5, 15, 30, "2022-01-10", "2024-06-30", 15, None, 0, 25),
    (1018, "Orbit Fitness Studios", "Health & Fitness", "US", 6, 14, 30, "2023-02-13", None, 26, None, 0, 31),
    (1019, "Keystone Property Management", "Real Estate", "US", 2, 12, 30, "2021-09-27", None, 32, "KPM", 0, 23),
    (1020, "Silverline Jewelers", "Retail", "US", 7, 12, 30, "2020-11-02", None, 85, None, 420, 27),
    (1021, "Polar Peak Outfitters", "Retail", "CA", 3, 12, 30, "2022-03-07", None, 50, "PPO", 160, 29),
    (1022, "Tidewater Urgent Care", "Healthcare", "US", 4, 15, 30, "2023-08-14", None, 24, None, 0, 52),
    (1023, "Nimbus Cloud Backup", "B2B SaaS", "US", 8, 10, 45, "2021-12-06", None, 65, "NCB", 0, 40),
    (1024, "Sparrow Pet Supply", "E-commerce", "US", 1, 12, 30, "2023-10-30", None, 55, None, 55, 21),
    (1025, "Elmwood Senior Living", "Healthcare", "US", 2, 15, 30, "2022-05-16", "2025-01-31", 30, None, 0, 34),
    (1026, "Granite Peak Roofing", "Home Services", "US", 7, 15, 30, "2023-04-03", None, 20, None, 0, 47),
    (1027, "Cobalt Career Institute", "Education", "US", 5, 14, 30, "2021-06-14", None, 48, "CCI", 0, 26),
    (1028, "Hearthstone Furniture", "Retail", "US", 6, 12, 30, "2022-09-12", None, 70, None, 850, 32),
    (1029, "Beacon Bank & Trust", "Finance", "US", 4, 10, 45, "2024-02-05", None, 80, "BBT", 0, 44),
    (1030, "Driftwood Vacation Rentals", "Travel", "US", 6, 12, 30, "2022-02-28", None, 40, None, 950, 24),
    (1031, "Apex Solar Solutions", "Home Services", "US", 8, 12, 30, "2023-06-05", None, 58, "APX", 0, 36),
    (1032, "Willow Baby Co.", "Ecommerce", "US", 7, 12, 30, "2023-11-13", None, 42, None, 65, 20),
    (1033, "Lakeshore Veterinary Clinics", "Healthcare", "US", 2, 15, 30, "2024-01-08", None, 16, None, 0, 24),
    (1034, "Metro Moving & Storage", "Home Services", "US", 4, 15, 30, "2022-07-25", "2024-03-31", 19, None, 0, 30),
    (1035, "Ember Candle Works", "E-commerce", "US", 3, 14, 30, "2024-10-07", None, 14, None, 32, 16),
    (1036, "Harborview Hotels", "Travel", "US", 1, 10, 30, "2021-04-12", None, 95, "HVH", 380, 28),
    (1037, "Trailhead Bikes", "Retail", "US", 3, 12, 30, "2025-03-03", None, 35, None, 700, 25),
    (1038, "Bayview Boat Tours", "Travel", "US", 5, 14, 30, "2023-03-20", None, 22, None, 120, 21),
    (9901, "ZZ Test - Agency Sandbox", "Internal", "US", None, None, None, "2019-01-01", None, 0, None, 0, 0),
    (9902, "QA Pixel Validation (do not bill)", "Internal", "US", None, None, None, "2022-05-02", None, 0, None, 0, 0),
]
SEASONAL = 1038        # Bayview Boat Tours: runs April-October only
LATE_START = 1037      # Trailhead Bikes: signed 2025-03-03, campaigns start 2025-03-20
RENAMED = ("BSM | Search | Generic", "BSM | Search | Non-Brand", dt.date(2024, 7, 1))
RECREATED = 1003       # Northwind rebuilt its shopping campaign: old one REMOVED 2024-05-31, same name anew

# channel: cost model, base (CPC USD or CPM USD), CTR, CVR
CHANNELS = {
    "SRCH": ("cpc", None, 0.045, 0.045),
    "SHOP": ("cpc", 0.75, 0.012, 0.025),
    "SOC": ("cpm", 9.0, 0.010, 0.013),
    "DISP": ("cpm", 3.4, 0.0030, 0.007),
    "VID": ("cpm", 14.0, 0.0025, 0.004),
}
SEARCH_CPC = {"E-commerce": 1.4, "Ecommerce": 1.4, "Retail": 1.2, "Healthcare": 4.6, "Automotive": 2.6,
              "Education": 3.6, "Finance": 6.2, "Travel": 1.8, "Home Services": 5.4, "B2B SaaS": 7.1,
              "Professional Services": 8.3, "Health & Fitness": 2.2, "Real Estate": 2.5, "Internal": 1.0}
LEADGEN_CVR = {"Healthcare": 1.5, "Home Services": 1.4, "Professional Services": 1.2, "Finance": 0.9,
               "B2B SaaS": 0.8, "Education": 1.1, "Automotive": 1.0, "Real Estate": 1.2, "Health & Fitness": 1.3}
SEASON = {  # vertical group -> month factor
    "shop": {1: 0.8, 2: 0.85, 3: 0.95, 4: 0.95, 5: 1.0, 6: 0.95, 7: 1.0, 8: 1.0, 9: 1.0, 10: 1.1, 11: 1.6, 12: 1.45},
    "edu": {1: 1.3, 2: 1.0, 3: 0.95, 4: 0.9, 5: 0.9, 6: 0.95, 7: 1.15, 8: 1.35, 9: 1.0, 10: 0.9, 11: 0.85, 12: 0.8},
    "travel": {1: 1.25, 2: 1.2, 3: 1.15, 4: 1.05, 5: 1.05, 6: 1.0, 7: 0.95, 8: 0.9, 9: 0.9, 10: 0.9, 11: 0.85, 12: 0.9},
    "flat": {m: 1.0 for m in range(1, 13)},
}
GROUP = {"E-commerce": "shop", "Ecommerce": "shop", "Retail": "shop", "Education": "edu", "Travel": "travel"}

HEADLINES = {
    "SRCH": ["Official Site - {n}", "{n} | Shop Now", "Save Today at {n}", "Book Online - {n}", "{n} Near You",
             "Free Quote from {n}", "Top Rated {n}", "Compare Plans - {n}"],
    "SHOP": ["All products feed", "Best sellers feed", "Sale items feed"],
    "SOC": ["Meet {n}", "Why people love {n}", "Limited time at {n}", "See what's new", "Real customers, real results"],
    "DISP": ["Come back to {n}", "Still thinking it over?", "{n} - new arrivals", "Your cart misses you"],
    "VID": ["{n} brand film 30s", "{n} bumper 6s", "{n} explainer 15s"],
}
FORMATS = {"SRCH": [("RSA", 5), ("ETA", 1)], "SHOP": [("PLA", 1)], "SOC": [("IMG", 3), ("CAR", 2), ("VID", 2)],
           "DISP": [("RDA", 3), ("IMG", 2)], "VID": [("VID", 1)]}
FORMAT_FX = {"RSA": (1.0, 1.0), "ETA": (0.85, 0.9), "PLA": (1.0, 1.0), "IMG": (1.0, 1.0), "CAR": (1.25, 1.1),
             "VID": (0.7, 0.85), "RDA": (1.1, 1.0)}  # CTR factor, CVR factor


def d(s):
    return dt.date.fromisoformat(s) if isinstance(s, str) else s


def month_start(day):
    return day.replace(day=1)


def add_months(day, n):
    y, m = divmod(day.month - 1 + n, 12)
    return dt.date(day.year + y, m + 1, 1)


def campaign_plan(adv):
    """(name, channel, bidding, weight, start, end, status, serve_from, serve_to) for one advertiser."""
    aid, _name, vertical, abbr = adv["id"], adv["name"], adv["vertical"], adv["abbr"]
    shop = GROUP.get(vertical) == "shop"
    plain = {("SRCH", "Brand"): "Brand Search", ("SRCH", "Non-Brand"): "Generic Search",
             ("SHOP", "All"): "Shopping - All Products", ("SOC", "Prospecting"): "Prospecting - Social",
             ("SOC", "Retargeting"): "Retargeting - Social", ("DISP", "Retargeting"): "Retargeting - Display",
             ("VID", "Awareness"): "YouTube Awareness", ("SOC", "Lead Gen"): "Lead Gen - Social",
             ("SRCH", "Services"): "Services Search", ("DISP", "Local"): "Local Display"}
    label = {"SRCH": "Search", "SHOP": "Shopping", "SOC": "Social", "DISP": "Display", "VID": "Video"}

    def nm(ch, kind):
        if abbr:
            return f"{abbr} | {label[ch]} | {kind}"
        return plain.get((ch, kind), f"{kind} - {label[ch]}")

    if shop:
        items = [("SRCH", "Brand", 0.12), ("SRCH", "Non-Brand", 0.22), ("SHOP", "All", 0.26),
                 ("SOC", "Prospecting", 0.18), ("SOC", "Retargeting", 0.08), ("DISP", "Retargeting", 0.06)]
        if adv["base"] >= 80000:
            items.append(("VID", "Awareness", 0.08))
    elif vertical == "Travel":
        items = [("SRCH", "Brand", 0.15), ("SRCH", "Destinations", 0.35), ("SOC", "Prospecting", 0.25),
                 ("DISP", "Retargeting", 0.15), ("VID", "Awareness", 0.10)]
    elif vertical in ("Finance", "B2B SaaS"):
        items = [("SRCH", "Brand", 0.12), ("SRCH", "Non-Brand", 0.40), ("SOC", "Lead Gen", 0.25),
                 ("DISP", "Retargeting", 0.13), ("VID", "Awareness", 0.10)]
    elif vertical == "Education":
        items = [("SRCH", "Brand", 0.15), ("SRCH", "Programs", 0.40), ("SOC", "Lead Gen", 0.30),
                 ("VID", "Awareness", 0.15)]
    else:  # local lead gen
        items = [("SRCH", "Brand", 0.15), ("SRCH", "Services", 0.50), ("SOC", "Lead Gen", 0.20),
                 ("DISP", "Local", 0.15)]
    if aid == 1001:  # Brightside: its generic search campaign is renamed on 2024-07-01
        items = [(c, "Generic" if k == "Non-Brand" and c == "SRCH" else k, w) for c, k, w in items]
    out = []
    for ch, kind, w in items:
        bid = {"SRCH": "MANUAL_CPC" if kind == "Brand" else ("TARGET_ROAS" if shop else "TARGET_CPA"),
               "SHOP": "TARGET_ROAS", "SOC": "MAX_CONV", "DISP": "CPM", "VID": "CPM"}[ch]
        out.append(dict(name=nm(ch, kind), channel=ch, bidding=bid, weight=w, kind=kind))
    if shop and aid not in (1035, 1037):
        out.append(dict(name=f"{abbr} | Social | Holiday 2024" if abbr else "Holiday 2024", channel="SOC",
                        bidding="MAX_CONV", weight=0.9, kind="Holiday",
                        window=(dt.date(2024, 11, 15), dt.date(2024, 12, 31))))
    if shop and aid in (1003, 1020, 1021, 1028):
        out.append(dict(name=f"{abbr} | Search | Spring Sale 2025" if abbr else "Spring Sale 2025", channel="SRCH",
                        bidding="MAX_CONV", weight=0.5, kind="Spring",
                        window=(dt.date(2025, 3, 20), dt.date(2025, 4, 30))))
    return out


def build():
    r = random.Random(SEED)
    managers = [(i, n, t, f"{EMAILS[i]}@brightpathmedia.com", s) for i, n, t, s in MANAGERS]
    advs, adv_rows = [], []
    for (aid, name, vert, ctry, am, fee, terms, signed, churned, base, abbr, aov, pay) in ADVERTISERS:
        test = aid >= 9900
        advs.append(dict(id=aid, name=name, vertical=vert, am=am, fee=fee, terms=terms, signed=d(signed),
                         churned=d(churned) if churned else None, base=base * 1000, abbr=abbr, aov=aov,
                         pay=pay, test=test))
        adv_rows.append((aid, name, vert, ctry, am, fee, terms, test, d(signed), d(churned) if churned else None))

    # ---- campaigns, ad groups, ads ----------------------------------------------------------------
    camp_rows, ag_rows, ad_rows = [], [], []
    camps = []   # runtime info
    cid, agid, adid = 20_114_530_000, 131_870_200_000, 684_402_100_000
    for adv in advs:
        if adv["test"]:
            if adv["id"] == 9901:
                plan = [dict(name="TEST - Search - do not touch", channel="SRCH", bidding="MANUAL_CPC", weight=0.6,
                             kind="Test"),
                        dict(name="TEST - Social - pixel check", channel="SOC", bidding="MAX_CONV", weight=0.4,
                             kind="Test")]
            else:
                plan = [dict(name="QA - Display - conversion tag test", channel="DISP", bidding="CPM", weight=1.0,
                             kind="Test")]
        else:
            plan = campaign_plan(adv)
        svc_start = max(adv["signed"] + dt.timedelta(days=14), dt.date(2020, 3, 1))
        if adv["id"] == LATE_START:
            svc_start = dt.date(2025, 3, 20)
        for c in plan:
            cid += r.randint(3, 900)
            if "window" in c:
                start, end = c["window"]
            else:
                if adv["test"]:
                    start = dt.date(2023, 9, 1)
                else:
                    start = svc_start + dt.timedelta(days=r.randint(0, 20))
                end = adv["churned"]
            status = "ENABLED"
            serve_from, serve_to = start, end or dt.date(2099, 1, 1)
            if adv["churned"]:
                status = "REMOVED"
            elif c.get("kind") == "Holiday":
                status = "ENABLED" if r.random() < 0.6 else "PAUSED"   # many are left ENABLED after they end
            elif adv["id"] == SEASONAL:
                status, serve_to = "PAUSED", dt.date(2024, 10, 31)
            elif adv["test"]:
                status, serve_to = "PAUSED", dt.date(2025, 3, 5)
            elif c["channel"] == "VID" and r.random() < 0.3:
                status, serve_to = "PAUSED", dt.date(2024, 9, 30) + dt.timedelta(days=r.randint(0, 90))
            name = c["name"]
            if adv["id"] == 1001 and name == RENAMED[0]:
                name = RENAMED[1]
            rows_for = [(cid, start, end, status, serve_from, serve_to, name)]
            if adv["id"] == RECREATED and c["channel"] == "SHOP":
                # old campaign removed at the end of May 2024, rebuilt under the same name
                old = (cid, start, dt.date(2024, 5, 31), "REMOVED", serve_from, dt.date(2024, 5, 31), name)
                cid += r.randint(3, 900)
                rows_for = [old, (cid, dt.date(2024, 6, 1), None, "ENABLED", dt.date(2024, 6, 1),
                                  dt.date(2099, 1, 1), name)]
            for (ccid, cstart, cend, cstatus, sfrom, sto, cname) in rows_for:
                avg_daily = max(adv["base"], 3000) * c["weight"] / 30.4
                daily_budget = int(round(avg_daily * r.uniform(1.3, 1.8), -1)) * MICROS
                created = dt.datetime.combine(cstart - dt.timedelta(days=r.randint(1, 12)),
                                              dt.time(r.randint(8, 18), r.randint(0, 59), r.randint(0, 59)))
                camp_rows.append((ccid, adv["id"], cname, c["channel"], c["bidding"], daily_budget, cstart, cend,
                                  cstatus, created))
                info = dict(id=ccid, adv=adv, name=cname, channel=c["channel"], kind=c["kind"],
                            weight=c["weight"] * r.uniform(0.8, 1.25), serve_from=sfrom, serve_to=sto, ads=[],
                            brand=c["kind"] == "Brand")
                camps.append(info)
                # ad groups
                ch = c["channel"]
                n_ag = 1 if ch in ("SHOP", "VID") or adv["test"] else r.choice([2, 2, 3])
                for g in range(n_ag):
                    agid += r.randint(5, 4000)
                    ag_name = {"SRCH": ["Brand exact", "Brand phrase", "Brand + product"] if c["kind"] == "Brand"
                               else ["Core terms", "Long tail", "Competitors", "Near me"],
                               "SHOP": ["All products"], "SOC": ["Broad 25-54", "Lookalike 1%", "Interests"],
                               "DISP": ["Site visitors 30d", "Cart abandoners", "Affinity"],
                               "VID": ["In-market"]}[ch][g]
                    ag_status = "ENABLED" if cstatus != "REMOVED" else "REMOVED"
                    bid = int(round(SEARCH_CPC[adv["vertical"]] * r.uniform(1.1, 1.6), 2) * MICROS) \
                        if c["bidding"] == "MANUAL_CPC" else None
                    ag_rows.append((agid, ccid, ag_name, ag_status, bid))
                    n_ads = 1 if adv["test"] else r.choice([1, 2, 2])
                    for _ in range(n_ads):
                        adid += r.randint(5, 9000)
                        fmt = r.choices([f for f, _ in FORMATS[ch]], weights=[w for _, w in FORMATS[ch]])[0]
                        head = r.choice(HEADLINES[ch]).format(n=adv["name"].split(" ")[0])
                        a_from = max(sfrom, FIRST_DAY - dt.timedelta(days=400)) + dt.timedelta(days=r.randint(0, 5))
                        a_to = sto
                        a_status = ag_status
                        if ag_status == "ENABLED" and not adv["test"] and r.random() < 0.15:   # creative retired mid-way
                            a_to = dt.date(2024, 3, 1) + dt.timedelta(days=r.randint(0, 330))
                            a_status = "PAUSED"
                        ad_rows.append((adid, agid, fmt, head, a_status, a_from))
                        info["ads"].append(dict(id=adid, fmt=fmt, w=r.uniform(0.4, 1.6), a_from=a_from, a_to=a_to))
                # a fresh creative added in 2024 to campaigns that run on
                if cstatus == "ENABLED" and sto > dt.date(2024, 9, 1) and ch != "SHOP" and not adv["test"] \
                        and sfrom < dt.date(2024, 6, 1) and r.random() < 0.5:
                    adid += r.randint(5, 9000)
                    fmt = r.choices([f for f, _ in FORMATS[ch]], weights=[w for _, w in FORMATS[ch]])[0]
                    a_from = dt.date(2024, 6, 1) + dt.timedelta(days=r.randint(0, 150))
                    ad_rows.append((adid, agid, fmt, "New: " + r.choice(HEADLINES[ch]).format(
                        n=adv["name"].split(" ")[0]), "ENABLED", a_from))
                    info["ads"].append(dict(id=adid, fmt=fmt, w=r.uniform(0.8, 1.8), a_from=a_from, a_to=sto))

    # ---- budgets (IO) ----------------------------------------------------------------------------
    budget_rows, final_budget = [], {}
    months = []
    m = FIRST_DAY
    while m <= LAST_DAY:
        months.append(m)
        m = add_months(m, 1)
    forced = {(1001, "2025-02"): (165000, 180000), (1013, "2025-02"): (76000, 69000),
              (1009, "2025-02"): (120000, 132000)}
    for adv in advs:
        if adv["test"]:
            continue
        first_m = month_start(max(adv["signed"], FIRST_DAY))
        for mo in months:
            if mo < first_m or (adv["churned"] and mo > adv["churned"]):
                continue
            if adv["id"] == SEASONAL and not (4 <= mo.month <= 10 and mo.year == 2024):
                continue
            key = mo.strftime("%Y-%m")
            factor = SEASON[GROUP.get(adv["vertical"], "flat")][mo.month] * (1 + 0.01 * (months.index(mo)))
            amount = round(adv["base"] * factor * r.uniform(0.9, 1.1) / 500) * 500
            entered = dt.datetime.combine(mo - dt.timedelta(days=r.randint(3, 12)), dt.time(r.randint(9, 17), 0))
            revs = [amount]
            if (adv["id"], key) in forced:
                revs = list(forced[(adv["id"], key)])
            elif r.random() < 0.1:
                revs.append(round(amount * r.uniform(0.8, 1.25) / 500) * 500)
            for i, amt in enumerate(revs, start=1):
                when = entered if i == 1 else dt.datetime.combine(mo + dt.timedelta(days=r.randint(6, 18)),
                                                                  dt.time(r.randint(9, 17), 30))
                budget_rows.append((adv["id"], key, i, amt, when))
            final_budget[(adv["id"], mo)] = revs[-1]

    # ---- daily delivery ---------------------------------------------------------------------------
    pacing = {}
    for (aid, mo), _b in final_budget.items():
        p = min(1.15, max(0.8, r.gauss(0.97, 0.07)))
        if (aid, mo) in ((1001, dt.date(2025, 2, 1)),):
            p = 0.955   # between the two revisions: over the original IO, under the revised one
        if (aid, mo) in ((1013, dt.date(2025, 2, 1)),):
            p = 1.04    # over the cut budget, under the original one
        if (aid, mo) in ((1009, dt.date(2025, 2, 1)),):
            p = 0.93
        pacing[(aid, mo)] = p
    for adv in advs:  # shops: conversion rate such that generic search returns about 3-6x its cost
        adv["cvr_mult"] = 1.0
        if adv["aov"]:
            roas = r.uniform(3.0, 6.0)
            adv["cvr_mult"] = min(2.0, max(0.1, roas * SEARCH_CPC[adv["vertical"]] / (0.045 * adv["aov"])))
    by_adv = {}
    for c in camps:
        by_adv.setdefault(c["adv"]["id"], []).append(c)
    stats = []
    cpm_channels = ("SOC", "DISP", "VID")
    day = FIRST_DAY
    while day <= LAST_DAY:
        mo = month_start(day)
        ndays = calendar.monthrange(day.year, day.month)[1]
        wd = day.weekday()
        for adv in advs:
            aid = adv["id"]
            if adv["test"]:
                if r.random() > (0.55 if aid == 9901 else 0.35) or day > dt.date(2025, 3, 5):
                    continue
                target = r.uniform(120, 320) if aid == 9901 else r.uniform(15, 40)
            else:
                b = final_budget.get((aid, mo))
                if not b:
                    continue
                target = b * pacing[(aid, mo)] / ndays * (1.05 if wd < 5 else 0.875) * r.uniform(0.85, 1.15)
            active = [c for c in by_adv.get(aid, []) if c["serve_from"] <= day <= c["serve_to"]]
            if not active:
                continue
            tw = sum(c["weight"] for c in active)
            for c in active:
                ads = [a for a in c["ads"] if a["a_from"] <= day <= a["a_to"]]
                if not ads:
                    continue
                camp_cost = target * c["weight"] / tw
                aw = sum(a["w"] for a in ads)
                ch = c["channel"]
                model, base, ctr, cvr = CHANNELS[ch]
                vert = adv["vertical"]
                cvr *= LEADGEN_CVR.get(vert, 1.0) * adv["cvr_mult"]
                if ch == "SRCH":
                    base = SEARCH_CPC[vert]
                    if c["brand"]:
                        base, ctr, cvr = base * 0.35, 0.13, cvr * 2.2
                if c["kind"] == "Holiday":
                    cvr *= 1.3
                for a in ads:
                    cost = camp_cost * a["w"] / aw * r.uniform(0.8, 1.2)
                    fctr, fcvr = FORMAT_FX[a["fmt"]]
                    if model == "cpc":
                        cpc = base * r.uniform(0.85, 1.15)
                        clk = int(cost / cpc + r.random())
                        if clk == 0:
                            continue
                        cost = clk * cpc
                        day_ctr = ctr * fctr * r.uniform(0.8, 1.2)
                        impr = max(clk, int(clk / day_ctr + r.random()))
                    else:
                        cpm = base * r.uniform(0.85, 1.15)
                        impr = int(cost / cpm * 1000 + r.random())
                        if impr == 0:
                            continue
                        cost = impr * cpm / 1000
                        clk = int(impr * ctr * fctr * r.uniform(0.75, 1.25) + r.random())
                    conv = round(clk * cvr * fcvr * r.uniform(0.6, 1.4), 2)
                    if aid == 9902:          # tag testing fires conversions without real clicks
                        conv = float(r.randint(20, 60))
                    value = int(conv * adv["aov"] * r.uniform(0.8, 1.2) * MICROS) if adv["aov"] else 0
                    vt = int(impr * 0.00004 * r.uniform(0, 2)) if ch in cpm_channels else 0
                    cname = c["name"]
                    if aid == 1001 and cname == RENAMED[1] and day < RENAMED[2]:
                        cname = RENAMED[0]
                    stats.append((day, a["id"], c["id"], cname, impr, clk, int(round(cost * MICROS)), conv, value, vt))
        day += dt.timedelta(days=1)

    # ---- invoices ----------------------------------------------------------------------------------
    spend = {}
    adv_of = {c["id"]: c["adv"]["id"] for c in camps}
    for row in stats:
        k = (adv_of[row[2]], month_start(row[0]))
        spend[k] = spend.get(k, 0) + row[6]
    drafts = []   # numbered afterwards, in order of issue
    adv_by_id = {a["id"]: a for a in advs}
    unpaid_forced = {(1014, dt.date(2024, 10, 1)), (1004, dt.date(2024, 12, 1)), (1026, dt.date(2025, 1, 1)),
                     (1022, dt.date(2024, 11, 1))}
    for (aid, mo) in sorted(spend):
        adv = adv_by_id[aid]
        if adv["test"] or mo >= dt.date(2025, 3, 1):
            continue
        media = round(spend[(aid, mo)] / MICROS, 2)
        fee = round(media * adv["fee"] / 100, 2)
        issued = add_months(mo, 1) + dt.timedelta(days=r.randint(2, 5))
        if issued > EXTRACT_DAY:
            continue
        if r.random() < 0.04:  # a wrong invoice: voided, re-issued a few days later
            wrong = round(media * r.uniform(1.03, 1.2), 2)
            wfee = round(wrong * adv["fee"] / 100, 2)
            drafts.append([issued, aid, mo, wrong, wfee, round(wrong + wfee, 2), issued,
                           issued + dt.timedelta(days=adv["terms"]), None, "V"])
            issued = min(issued + dt.timedelta(days=r.randint(3, 9)), EXTRACT_DAY - dt.timedelta(days=1))
        lag = max(4, int(r.lognormvariate(math.log(adv["pay"]), 0.25)))
        paid = issued + dt.timedelta(days=lag)
        status = "P"
        if paid > EXTRACT_DAY or (aid, mo) in unpaid_forced:
            paid, status = None, "S"
        drafts.append([issued, aid, mo, media, fee, round(media + fee, 2), issued,
                       issued + dt.timedelta(days=adv["terms"]), paid, status])
    drafts.sort(key=lambda x: (x[0], x[1], x[2]))
    invoice_rows, seq = [], {}
    for row in drafts:
        year = row[0].year
        seq[year] = seq.get(year, 0) + 1
        invoice_rows.append((f"INV-{year % 100}-{seq[year]:04d}", *row[1:]))

    return {"account_managers": managers, "advertisers": adv_rows, '"Campaigns"': camp_rows,
            '"AdGroups"': ag_rows, "ads": ad_rows, "ad_daily_stats": stats, "budgets": budget_rows,
            "invoices": invoice_rows}


def main() -> None:
    _common.ensure_venv()
    import psycopg
    from psycopg import sql

    tables = build()
    _common.pg_create_database(DATABASE)
    with psycopg.connect(**{**_common.PG_ADMIN, "dbname": DATABASE}) as con:  # one transaction
        cur = con.cursor()
        cur.execute(f"DROP SCHEMA IF EXISTS {SCHEMA} CASCADE")
        cur.execute(f"CREATE SCHEMA {SCHEMA}")
        cur.execute(f"COMMENT ON SCHEMA {SCHEMA} IS 'Brightpath Media (digital ad agency): clients, campaigns, "
                    f"daily ad delivery, budgets, invoices; stats 2024-01-01 .. 2025-03-11 (extract of 2025-03-12)'")
        for ddl in DDL:
            cur.execute(ddl)
        for table, comment in TABLE_COMMENTS.items():
            cur.execute(sql.SQL(f"COMMENT ON TABLE {SCHEMA}.{table} IS {{}}").format(sql.Literal(comment)))
        for (table, column), comment in COLUMN_COMMENTS.items():
            cur.execute(sql.SQL(f"COMMENT ON COLUMN {SCHEMA}.{table}.{column} IS {{}}").format(sql.Literal(comment)))
        for table, rows in tables.items():
            with cur.copy(f"COPY {SCHEMA}.{table} FROM STDIN") as copy:
                for row in rows:
                    copy.write_row(row)
        _common.pg_reader_role(cur, ROLE, DATABASE, SCHEMA)
        counts = {}
        for table in tables:
            cur.execute(f"SELECT count(*) FROM {SCHEMA}.{table}")
            counts[f"{SCHEMA}.{table}"] = cur.fetchone()[0]
    with psycopg.connect(**{**_common.PG_ADMIN, "dbname": DATABASE}, autocommit=True) as con:
        con.execute("ANALYZE")
    print(f"loaded the synthetic ad agency warehouse into PostgreSQL database {DATABASE}, schema {SCHEMA}:")
    _common.print_counts(counts, URL, f"(tables are in schema {SCHEMA}, not public: WAREHOUSE_SCHEMAS={SCHEMA} names it)")


if __name__ == "__main__":
    main()
