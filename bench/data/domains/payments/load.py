#!/usr/bin/env python3
"""A synthetic card-payments acquirer (merchant acquiring, 2022-07 .. 2025-06) in DuckDB, schema `acq`.

    python3 load.py                 # writes /tmp/dev_payments.duckdb (what meta.json points at)
    python3 load.py PATH.duckdb     # or there

Builds the file anew with random.Random(SEED) (identical rows on every run); a new file is
written beside the old one and moved over it, so re-running is safe. DuckDB has no logins: the
read-only "reader" (payments_reader) is whoever opens the file with read_only=True, as the bot
and score.py do; nothing in the file can be changed through such a connection.

Naming: camelCase, so every identifier must be double-quoted: acq."cardTransactions"."txnAt".
Primary keys are declared, foreign keys are NOT (implied by the *Id names). Code columns are
explained in COMMENT ON COLUMN, or in the generic lookup table acq."refCodes" (by "codeSet").

  acq.merchants            one row per merchant account: legal and trading ("dba") name, MCC,
                           country/city, settlement currency, pricing plan, payout frequency,
                           onboarded / closed dates; test accounts ("isTestAccount") and deleted
                           duplicate applications ("deletedAt" set) are still in the table
  acq.terminals            card readers (channel CP) and e-commerce gateways (channel CNP);
                           replaced or returned devices carry "decommissionedAt"
  acq."cardTransactions"   one row per card payment attempt; "amountMinor" in minor units of
                           "currencyCode" (cents, pence, öre); "status" is the CURRENT state
                           (AUTH, CAPT, RFND, CHBK, DECL, VOID); timestamps UTC
  acq."settlementBatches"  one row per merchant payout: gross captured, refunds, chargebacks,
                           adjustments, our fees and the net paid, all in minor units
  acq."feeSchedule"        price list per plan, currency and card brand, with validity dates
                           (a price change is a new row; "validTo" NULL = current price)
  acq.disputes             one row per chargeback received, with its network reason code
  acq."refCodes"           code -> description for dispute reasons, POS entry modes, response codes
"""

import datetime as dt
import math
import os
import random
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(next(p / "shared/eval/domains" for p in Path(__file__).resolve().parents
                            if (p / "shared/eval/domains").is_dir())))  # the shared eval loaders' helpers
import _common  # noqa: E402

SCHEMA = "acq"
DEFAULT_PATH = "/tmp/dev_payments.duckdb"
SEED = 7
FIRST_DAY, LAST_DAY = dt.date(2022, 7, 1), dt.date(2025, 6, 30)
EXTRACT_END = dt.datetime(2025, 7, 1, 0, 0)   # UTC; nothing at or after this moment is in the extract
TARGET_TXNS = 188_000                         # expected real (non-test) payment attempts

DDL = [
    """CREATE TABLE acq.merchants (
        "merchantId" INTEGER PRIMARY KEY,
        "legalName" VARCHAR NOT NULL,
        "dbaName" VARCHAR NOT NULL,
        "mcc" VARCHAR(4) NOT NULL,
        "countryCode" VARCHAR(2) NOT NULL,
        "city" VARCHAR NOT NULL,
        "settlementCurrency" VARCHAR(3) NOT NULL,
        "planCode" VARCHAR NOT NULL,
        "payoutFrequency" VARCHAR NOT NULL,
        "onboardedOn" DATE NOT NULL,
        "closedOn" DATE,
        "isTestAccount" BOOLEAN NOT NULL,
        "deletedAt" TIMESTAMP)""",
    """CREATE TABLE acq.terminals (
        "terminalId" VARCHAR PRIMARY KEY,
        "merchantId" INTEGER NOT NULL,
        "channel" VARCHAR(3) NOT NULL,
        "model" VARCHAR NOT NULL,
        "serialNumber" VARCHAR,
        "activatedOn" DATE NOT NULL,
        "decommissionedAt" TIMESTAMP)""",
    """CREATE TABLE acq."cardTransactions" (
        "txnId" BIGINT PRIMARY KEY,
        "merchantId" INTEGER NOT NULL,
        "terminalId" VARCHAR NOT NULL,
        "txnAt" TIMESTAMP NOT NULL,
        "amountMinor" BIGINT NOT NULL,
        "currencyCode" VARCHAR(3) NOT NULL,
        "cardBrand" VARCHAR NOT NULL,
        "cardType" VARCHAR NOT NULL,
        "issuerCountry" VARCHAR(2) NOT NULL,
        "entryMode" VARCHAR(2) NOT NULL,
        "responseCode" VARCHAR(2) NOT NULL,
        "authCode" VARCHAR(6),
        "status" VARCHAR(4) NOT NULL,
        "capturedAt" TIMESTAMP,
        "refundedMinor" BIGINT,
        "refundedAt" TIMESTAMP,
        "batchId" BIGINT)""",
    """CREATE TABLE acq."settlementBatches" (
        "batchId" BIGINT PRIMARY KEY,
        "merchantId" INTEGER NOT NULL,
        "settlementDate" DATE NOT NULL,
        "currencyCode" VARCHAR(3) NOT NULL,
        "txnCount" INTEGER NOT NULL,
        "grossMinor" BIGINT NOT NULL,
        "refundsMinor" BIGINT NOT NULL,
        "chargebacksMinor" BIGINT NOT NULL,
        "adjustmentsMinor" BIGINT NOT NULL,
        "feesMinor" BIGINT NOT NULL,
        "netMinor" BIGINT NOT NULL,
        "payoutStatus" VARCHAR NOT NULL,
        "paidOutAt" TIMESTAMP)""",
    """CREATE TABLE acq."feeSchedule" (
        "feeScheduleId" INTEGER PRIMARY KEY,
        "planCode" VARCHAR NOT NULL,
        "planName" VARCHAR NOT NULL,
        "currencyCode" VARCHAR(3) NOT NULL,
        "cardBrand" VARCHAR NOT NULL,
        "pctBps" INTEGER NOT NULL,
        "fixedMinor" INTEGER NOT NULL,
        "validFrom" DATE NOT NULL,
        "validTo" DATE)""",
    """CREATE TABLE acq.disputes (
        "disputeId" INTEGER PRIMARY KEY,
        "txnId" BIGINT NOT NULL,
        "reasonCode" VARCHAR NOT NULL,
        "openedOn" DATE NOT NULL,
        "respondBy" DATE NOT NULL,
        "disputedMinor" BIGINT NOT NULL,
        "currencyCode" VARCHAR(3) NOT NULL,
        "outcome" VARCHAR,
        "resolvedOn" DATE)""",
    """CREATE TABLE acq."refCodes" (
        "codeSet" VARCHAR NOT NULL,
        "code" VARCHAR NOT NULL,
        "description" VARCHAR NOT NULL,
        PRIMARY KEY ("codeSet", "code"))""",
]

MCCS = {  # mcc: (weight, typical ticket EUR, ticket sigma, share of card-not-present sales, refund rate)
    "5812": (16, 38, 0.55, 0.0, 0.004),
    "5814": (9, 11, 0.45, 0.0, 0.003),
    "5411": (8, 31, 0.75, 0.0, 0.006),
    "5462": (6, 8, 0.5, 0.0, 0.002),
    "5499": (5, 22, 0.6, 0.0, 0.005),
    "5691": (9, 62, 0.6, 0.35, 0.06),
    "5732": (5, 170, 0.8, 0.45, 0.04),
    "5942": (3, 24, 0.5, 0.2, 0.02),
    "5999": (8, 41, 0.8, 0.3, 0.02),
    "7011": (5, 240, 0.6, 0.15, 0.015),
    "4121": (5, 21, 0.5, 0.0, 0.002),
    "5541": (4, 56, 0.5, 0.0, 0.002),
    "7230": (6, 46, 0.45, 0.0, 0.004),
    "8099": (4, 88, 0.5, 0.05, 0.008),
}
MCC_COMMENT = ("ISO 18245 merchant category code: 4121 taxis, 5411 grocery/supermarkets, 5462 bakeries, "
               "5499 food stores/delis, 5541 fuel stations, 5691 clothing, 5732 electronics, 5812 restaurants, "
               "5814 fast food, 5942 book stores, 5999 miscellaneous retail, 7011 hotels, 7230 hair and beauty, "
               "8099 health services")
NAME_PARTS = {
    "5812": (["Brasserie", "Trattoria", "Bistro", "Restaurant", "Eetcafé", "Osteria", "Taverna", "Kitchen"],
             ["Lumière", "Bella", "De Gouden Lepel", "Olijf", "Vista", "Het Anker", "Saffraan", "Nord", "Oak",
              "Sol", "Rivière", "Basilico", "De Kade", "Marktplein", "Linde", "Harbour", "Giardino", "Kastanje"]),
    "5814": (["Burger", "Frites", "Wok", "Kebab", "Snackbar", "Pizza", "Noodle", "Taco"],
             ["Corner", "Express", "Bros", "Station", "Hub", "Point", "Republic", "Stop", "King", "Factory"]),
    "5411": (["Super", "Buurtsuper", "Markt", "Spar", "Fresh", "Daily", "Organic"],
             ["Centrum", "Noord", "Plus", "Foods", "Market", "Grocer", "Oost", "Village", "Basket"]),
    "5462": (["Bakkerij", "Bäckerei", "Boulangerie", "Bakery", "Bageri"],
             ["Jansen", "Müller", "Dupont", "Bakker", "Lindqvist", "Van Dam", "Sourdough", "Korn", "Blé d'Or"]),
    "5499": (["Delicatessen", "Kaashandel", "Feinkost", "Deli", "Épicerie", "Traiteur"],
             ["Gourmet", "Van Leeuwen", "Olive Tree", "Kaasland", "Provence", "Nordic", "Fumé"]),
    "5691": (["Boutique", "Mode", "Denim", "Wardrobe", "Studio", "Atelier", "Threads"],
             ["Noir", "Blue", "Linnen", "Urban", "Vintage", "Nova", "Lina", "Moss", "Stitch", "Fjord"]),
    "5732": (["Tech", "Gadget", "Digital", "Electro", "Pixel", "Phone"],
             ["Store", "World", "Shop", "Point", "Center", "Planet", "Depot", "Fix"]),
    "5942": (["Boekhandel", "Buchhandlung", "Librairie", "Books", "Bokhandel"],
             ["Het Leesteken", "Seitenweise", "Page", "Folio", "Inkt", "Chapter"]),
    "5999": (["Gift", "Home", "Garden", "Pet", "Hobby", "Craft", "Bike"],
             ["Corner", "Supplies", "Store", "Emporium", "Wereld", "Haus", "Co", "Lab", "Box"]),
    "7011": (["Hotel", "Hostel", "Inn", "Boutique Hotel", "Hotel"],
             ["Amstel View", "Rheinblick", "Canal House", "Central", "Seaside", "Old Town", "Grand", "Park",
              "Station", "Waterfront", "Royal"]),
    "4121": (["Taxi", "Cab", "Taxicentrale", "Rides"],
             ["Direct", "24", "Express", "City", "Airport", "Rapid", "Green"]),
    "5541": (["Tankstation", "Fuel", "Tankstelle", "Station"],
             ["A12", "Noord", "Ring", "Highway", "Express", "Route 9", "Mitte"]),
    "7230": (["Kapsalon", "Salon", "Friseur", "Beauty", "Barber"],
             ["Chic", "Bella", "Knip", "Glow", "Schnitt", "Studio 5", "Fade"]),
    "8099": (["Fysio", "Physio", "Dental", "Clinic", "Praktijk", "Care"],
             ["Centrum", "Plus", "Vital", "Balance", "Noord", "Smile", "Move"]),
}
COUNTRIES = {  # country: (weight, currency, cities, suffix, currency factor from EUR tickets)
    "NL": (34, "EUR", ["Amsterdam", "Rotterdam", "Utrecht", "The Hague", "Eindhoven", "Groningen", "Haarlem"], "B.V.", 1.0),
    "DE": (18, "EUR", ["Berlin", "Hamburg", "Munich", "Cologne", "Düsseldorf", "Frankfurt"], "GmbH", 1.0),
    "BE": (10, "EUR", ["Brussels", "Antwerp", "Ghent", "Leuven"], "BV", 1.0),
    "FR": (8, "EUR", ["Paris", "Lille", "Lyon"], "SARL", 1.0),
    "IE": (6, "EUR", ["Dublin", "Cork", "Galway"], "Ltd", 1.0),
    "GB": (14, "GBP", ["London", "Manchester", "Bristol", "Leeds"], "Ltd", 0.86),
    "SE": (10, "SEK", ["Stockholm", "Gothenburg", "Malmö"], "AB", 11.3),
}
CONTACTLESS_LIMIT = {"EUR": 5000, "GBP": 10000, "SEK": 40000}  # minor units, no-PIN tap limit
PLANS = {"STD": "Standard", "PLUS": "Plus", "ENT": "Enterprise"}
BASE_BPS = {"STD": {"VISA": 175, "MASTERCARD": 175, "MAESTRO": 120, "AMEX": 290},
            "PLUS": {"VISA": 145, "MASTERCARD": 145, "MAESTRO": 100, "AMEX": 270},
            "ENT": {"VISA": 110, "MASTERCARD": 110, "MAESTRO": 80, "AMEX": 250}}
FIXED = {"EUR": {"STD": 10, "PLUS": 8, "ENT": 5}, "GBP": {"STD": 10, "PLUS": 8, "ENT": 5},
         "SEK": {"STD": 100, "PLUS": 80, "ENT": 50}}
STD_RISE = dt.date(2024, 4, 1)   # Standard plan: +20 bps on Visa/Mastercard from this day
AMEX_CUT = dt.date(2023, 10, 1)  # every plan: -10 bps on Amex from this day

REF_CODES = [
    ("disputeReason", "10.4", "Visa 10.4 - Other Fraud, card-absent environment: cardholder says they did not authorise an online/phone payment (fraud)"),
    ("disputeReason", "10.5", "Visa 10.5 - Visa Fraud Monitoring Program: merchant identified by VFMP (fraud)"),
    ("disputeReason", "12.6", "Visa 12.6 - Duplicate processing / paid by other means (processing error)"),
    ("disputeReason", "13.1", "Visa 13.1 - Merchandise / services not received (consumer dispute)"),
    ("disputeReason", "13.3", "Visa 13.3 - Not as described or defective merchandise (consumer dispute)"),
    ("disputeReason", "13.6", "Visa 13.6 - Credit not processed: refund promised but not given (consumer dispute)"),
    ("disputeReason", "4834", "Mastercard 4834 - Point-of-interaction error, e.g. duplicate charge (processing error)"),
    ("disputeReason", "4837", "Mastercard 4837 - No cardholder authorisation (fraud)"),
    ("disputeReason", "4853", "Mastercard 4853 - Cardholder dispute: goods not received / not as described (consumer dispute)"),
    ("disputeReason", "4863", "Mastercard 4863 - Cardholder does not recognise the transaction (fraud)"),
    ("disputeReason", "C08", "Amex C08 - Goods / services not received (consumer dispute)"),
    ("disputeReason", "C05", "Amex C05 - Goods / services cancelled (consumer dispute)"),
    ("disputeReason", "F29", "Amex F29 - Card not present fraud (fraud)"),
    ("posEntryMode", "01", "Manual key entry (card number typed in)"),
    ("posEntryMode", "05", "Chip (EMV contact, card inserted)"),
    ("posEntryMode", "07", "Contactless (tap: card, phone or watch)"),
    ("posEntryMode", "10", "Credential on file (stored card, recurring or one-click)"),
    ("posEntryMode", "81", "E-commerce (card details entered online)"),
    ("posEntryMode", "90", "Magnetic stripe (card swiped)"),
    ("responseCode", "00", "Approved"),
    ("responseCode", "05", "Do not honour (declined by issuer, no reason given)"),
    ("responseCode", "14", "Invalid card number"),
    ("responseCode", "51", "Insufficient funds"),
    ("responseCode", "54", "Expired card"),
    ("responseCode", "57", "Transaction not permitted to cardholder"),
    ("responseCode", "59", "Suspected fraud"),
    ("responseCode", "91", "Issuer or switch unavailable"),
]
DECLINE_CODES = (["05", "51", "54", "14", "57", "59", "91"], [40, 30, 8, 5, 5, 7, 5])
REASONS = {  # network: (fraud codes, consumer codes, processing-error codes)
    "VISA": (["10.4"], ["13.1", "13.3", "13.6"], ["12.6"]),
    "MASTERCARD": (["4837", "4863"], ["4853"], ["4834"]),
    "AMEX": (["F29"], ["C08", "C05"], []),
}

TABLE_COMMENTS = {
    "merchants": "One row per merchant account (contracted business). Test accounts and deleted duplicate applications are kept in the table.",
    "terminals": "Card acceptance points: physical card readers (channel CP) and e-commerce gateways (channel CNP)",
    "cardTransactions": "One row per card payment attempt (authorisation request), with its current status",
    "settlementBatches": "One row per payout to a merchant: what was settled on a settlement date, in minor units",
    "feeSchedule": "Our price list (merchant service charge) per plan, currency and card brand; a price change is a new row",
    "disputes": "Chargebacks received from the card networks, one row per disputed transaction",
    "refCodes": "Lookup of code meanings; codeSet says which column the code belongs to: disputeReason = disputes.reasonCode, posEntryMode = cardTransactions.entryMode, responseCode = cardTransactions.responseCode",
}
COLUMN_COMMENTS = {
    ("merchants", "dbaName"): "trading name ('doing business as'): the name on the shop front and on card statements",
    ("merchants", "legalName"): "registered company name on the contract",
    ("merchants", "mcc"): MCC_COMMENT,
    ("merchants", "countryCode"): "ISO 3166 alpha-2 country of the merchant",
    ("merchants", "settlementCurrency"): "currency the merchant is paid out in (all its transactions are in this currency)",
    ("merchants", "planCode"): "pricing plan, see feeSchedule.planCode",
    ("merchants", "payoutFrequency"): "DAILY = paid every business day, WEEKLY = paid on Mondays",
    ("merchants", "onboardedOn"): "date the merchant contract was signed (account opened)",
    ("merchants", "closedOn"): "date the merchant contract ended; NULL = still a customer",
    ("merchants", "isTestAccount"): "true = internal test / sandbox / demo account: its transactions are not real money and are excluded from all reporting",
    ("merchants", "deletedAt"): "set when the record was deleted (duplicate or abandoned application); deleted rows are kept for audit only and are not merchants",
    ("terminals", "channel"): "CP = card present (physical reader in a shop), CNP = card not present (e-commerce gateway)",
    ("terminals", "activatedOn"): "first day the terminal could take payments",
    ("terminals", "decommissionedAt"): "when the terminal was switched off (replaced, returned or merchant left); NULL = still in use",
    ("cardTransactions", "txnAt"): "time of the authorisation request, UTC",
    ("cardTransactions", "amountMinor"): "amount authorised, in minor units of currencyCode (cents, pence, öre): divide by 100 for euros/pounds/kronor",
    ("cardTransactions", "currencyCode"): "ISO 4217 currency of the payment (the merchant's settlement currency)",
    ("cardTransactions", "cardBrand"): "card network: VISA, MASTERCARD, MAESTRO, AMEX",
    ("cardTransactions", "cardType"): "credit, debit or prepaid",
    ("cardTransactions", "issuerCountry"): "country of the bank that issued the card",
    ("cardTransactions", "entryMode"): "POS entry mode: how the card was read, see refCodes codeSet 'posEntryMode'",
    ("cardTransactions", "responseCode"): "issuer response, '00' = approved, anything else declined; see refCodes codeSet 'responseCode'",
    ("cardTransactions", "authCode"): "issuer authorisation code; NULL when declined",
    ("cardTransactions", "status"): "CURRENT state of the payment: AUTH = authorised, not captured (yet); CAPT = captured (charged); RFND = captured, later refunded in full or in part (see refundedMinor); CHBK = captured, later charged back (see disputes); DECL = declined by the issuer; VOID = authorisation cancelled before capture",
    ("cardTransactions", "capturedAt"): "when the payment was captured (the sale became final), UTC; NULL = never captured",
    ("cardTransactions", "refundedMinor"): "amount refunded to the cardholder in minor units; less than amountMinor for a partial refund; NULL = no refund",
    ("cardTransactions", "refundedAt"): "when the refund was made, UTC",
    ("cardTransactions", "batchId"): "settlement batch that paid this sale out to the merchant; NULL = not settled (yet)",
    ("settlementBatches", "settlementDate"): "the payout date the batch belongs to",
    ("settlementBatches", "txnCount"): "number of captured sales in the batch",
    ("settlementBatches", "grossMinor"): "captured sales settled in this batch, minor units",
    ("settlementBatches", "refundsMinor"): "refunds deducted in this batch, minor units",
    ("settlementBatches", "chargebacksMinor"): "chargebacks deducted in this batch, minor units",
    ("settlementBatches", "adjustmentsMinor"): "credits to the merchant (chargebacks won back), minor units",
    ("settlementBatches", "feesMinor"): "our processing fees (merchant service charge) deducted in this batch, minor units: our revenue",
    ("settlementBatches", "netMinor"): "amount paid to the merchant = gross - refunds - chargebacks + adjustments - fees, minor units (negative = merchant owes us)",
    ("settlementBatches", "payoutStatus"): "PAID = paid out; HELD = payout withheld by risk; NEGATIVE = net below zero, collected by direct debit",
    ("settlementBatches", "paidOutAt"): "when the money left our account, UTC; NULL unless PAID",
    ("feeSchedule", "pctBps"): "percentage fee in basis points of the amount (100 bps = 1%)",
    ("feeSchedule", "fixedMinor"): "fixed fee per captured transaction, minor units of currencyCode",
    ("feeSchedule", "validFrom"): "first day this price applies",
    ("feeSchedule", "validTo"): "first day this price no longer applies (exclusive); NULL = current price",
    ("disputes", "reasonCode"): "network reason code, see refCodes codeSet 'disputeReason'",
    ("disputes", "openedOn"): "date we received the chargeback",
    ("disputes", "respondBy"): "deadline for the merchant's evidence",
    ("disputes", "disputedMinor"): "amount charged back, minor units of currencyCode",
    ("disputes", "outcome"): "WON = decided for the merchant (money returned), LOST = decided for the cardholder; NULL = still open",
    ("disputes", "resolvedOn"): "date the dispute was decided; NULL while open",
}


def days(a: dt.date, b: dt.date):
    d = a
    while d <= b:
        yield d
        d += dt.timedelta(days=1)


def last_sunday(year: int, month: int) -> dt.date:
    d = dt.date(year, month, 31)
    return d - dt.timedelta(days=(d.weekday() + 1) % 7)


def utc_offset(country: str, day: dt.date) -> int:
    summer = last_sunday(day.year, 3) <= day < last_sunday(day.year, 10)
    return (0 if country in ("GB", "IE") else 1) + (1 if summer else 0)


def poisson(r: random.Random, lam: float) -> int:
    if lam <= 0:
        return 0
    if lam > 40:
        return max(0, int(round(r.gauss(lam, math.sqrt(lam)))))
    limit, k, p = math.exp(-lam), 0, 1.0
    while True:
        p *= r.random()
        if p <= limit:
            return k
        k += 1


SEASON = [0.85, 0.84, 0.94, 0.98, 1.03, 1.05, 1.08, 1.04, 1.0, 1.0, 1.09, 1.34]
WEEKDAY = [0.88, 0.9, 0.95, 1.0, 1.15, 1.25, 0.62]


def build():
    r = random.Random(SEED)

    # ------------------------------------------------------------ fee schedule
    fees, fid = [], 0
    for plan, name in PLANS.items():
        for cur in ("EUR", "GBP", "SEK"):
            for brand in ("VISA", "MASTERCARD", "MAESTRO", "AMEX"):
                if brand == "MAESTRO" and cur != "EUR":
                    continue
                bps, fixed = BASE_BPS[plan][brand], FIXED[cur][plan]
                start = dt.date(2021, 1, 1)
                changes = []
                if plan == "STD" and brand in ("VISA", "MASTERCARD"):
                    changes.append((STD_RISE, bps + 20))
                if brand == "AMEX":
                    changes.append((AMEX_CUT, bps - 10))
                for when, new in changes:
                    fid += 1
                    fees.append((fid, plan, name, cur, brand, bps, fixed, start, when))
                    start, bps = when, new
                fid += 1
                fees.append((fid, plan, name, cur, brand, bps, fixed, start, None))

    def fee_for(plan, cur, brand, day):
        for f in fees:
            if f[1] == plan and f[3] == cur and f[4] == brand and f[7] <= day and (f[8] is None or day < f[8]):
                return f[5], f[6]
        raise KeyError((plan, cur, brand, day))

    # ------------------------------------------------------------ merchants
    merchants, minfo = [], {}
    used_names = set()
    mid = 1000

    def new_name(mcc):
        for _ in range(200):
            a, b = NAME_PARTS[mcc]
            name = f"{r.choice(a)} {r.choice(b)}"
            if name not in used_names:
                used_names.add(name)
                return name
        raise RuntimeError("names exhausted")

    def add_merchant(dba, legal, mcc, country, city, onboarded, closed=None, test=False, deleted=None,
                     size=None, cnp=None, special=None):
        nonlocal mid
        mid += 1
        cur = COUNTRIES[country][1]
        if size is None:
            size = r.lognormvariate(0, 1.0)
        plan = "ENT" if size > 4.5 else ("PLUS" if size > 1.8 else "STD")
        if test:
            plan = "STD"
        payout = "DAILY" if (size > 3.0 and not test) else "WEEKLY"
        merchants.append([mid, legal, dba, mcc, country, city, cur, plan, payout, onboarded, closed, test, deleted])
        minfo[mid] = dict(id=mid, dba=dba, mcc=mcc, country=country, cur=cur, plan=plan, payout=payout,
                          onboarded=onboarded, closed=closed, test=test, deleted=deleted, size=size,
                          cnp=MCCS[mcc][3] if cnp is None else cnp, growth=r.uniform(-0.08, 0.3),
                          special=special, live=None)
        return mid

    mccs, mcc_w = list(MCCS), [v[0] for v in MCCS.values()]
    ctry, ctry_w = list(COUNTRIES), [v[0] for v in COUNTRIES.values()]
    for _ in range(352):
        mcc = r.choices(mccs, mcc_w)[0]
        country = r.choices(ctry, ctry_w)[0]
        city = r.choice(COUNTRIES[country][2])
        dba = new_name(mcc)
        legal = f"{dba} {COUNTRIES[country][3]}" if r.random() < 0.7 else \
            f"{r.choice(['Van Berg', 'Nordlicht', 'Kestrel', 'Amber', 'Delta', 'Horizon', 'Meridian', 'Oakridge', 'Vega', 'Atlas'])} " \
            f"{r.choice(['Holding', 'Ventures', 'Group', 'Retail', 'Hospitality', 'Trading'])} {COUNTRIES[country][3]}"
        u = r.random()
        if u < 0.45:
            onboarded = dt.date(2018, 1, 1) + dt.timedelta(days=r.randint(0, (FIRST_DAY - dt.date(2018, 1, 1)).days - 1))
        else:
            onboarded = FIRST_DAY + dt.timedelta(days=r.randint(0, (dt.date(2025, 6, 20) - FIRST_DAY).days))
        closed = None
        if r.random() < 0.11:
            lo = max(onboarded, FIRST_DAY) + dt.timedelta(days=60)
            if lo < dt.date(2025, 6, 1):
                closed = lo + dt.timedelta(days=r.randint(0, (dt.date(2025, 6, 1) - lo).days))
        cnp = MCCS[mcc][3]
        if cnp and r.random() < 0.25:
            cnp = 1.0  # pure web shop
        add_merchant(dba, legal, mcc, country, city, onboarded, closed, cnp=cnp)

    # merchants the questions lean on
    add_merchant("Bakkerij de Vries", "De Vries Brood & Banket B.V.", "5462", "NL", "Utrecht",
                          dt.date(2019, 4, 15), size=1.6, special="bakery")
    add_merchant("Café Central", "Café Central Amsterdam B.V.", "5812", "NL", "Amsterdam",
                         dt.date(2020, 9, 1), size=1.9)
    add_merchant("Café Central", "Central Horeca BV", "5812", "BE", "Antwerp", dt.date(2023, 3, 14), size=1.2)
    add_merchant("GadgetHub Online", "GadgetHub Commerce B.V.", "5732", "NL", "Rotterdam",
                          dt.date(2021, 2, 1), size=7.0, cnp=1.0, special=("fraud", 0.06))
    add_merchant("Vaporia Webshop", "Vaporia Handels GmbH", "5999", "DE", "Hamburg",
                         dt.date(2022, 10, 3), size=6.0, cnp=1.0, special=("fraud", 0.04))
    add_merchant("FlexFit Supplements", "FlexFit Nutrition Ltd", "5499", "IE", "Dublin",
                           dt.date(2021, 6, 7), size=5.5, cnp=1.0, special=("fraud", 0.028))
    add_merchant("TicketNest", "TicketNest Events B.V.", "5999", "NL", "Amsterdam", dt.date(2022, 2, 14),
                 size=6.0, cnp=1.0, special=("fraud", 0.022))
    # a few big, steady merchants (the top of the volume tables)
    for dba, legal, mcc, country, city, size in [
        ("Stadshotel Amstel View", "Amstel Hospitality B.V.", "7011", "NL", "Amsterdam", 7.0),
        ("FreshMarkt Centrum", "FreshMarkt Retail B.V.", "5411", "NL", "Rotterdam", 13.0),
        ("TaxiDirect 24", "TaxiDirect Mobility GmbH", "4121", "DE", "Berlin", 16.0),
        ("Northern Fuel Ring", "Northern Fuel Ltd", "5541", "GB", "Manchester", 11.0),
        ("Bokhandel Folio", "Folio Böcker AB", "5942", "SE", "Stockholm", 9.0),
        ("Urban Threads", "Urban Threads Fashion B.V.", "5691", "NL", "Amsterdam", 8.5),
    ]:
        used_names.add(dba)
        add_merchant(dba, legal, mcc, country, city, dt.date(2020, 5, 4), size=size)
    # signed, never went live (no payment ever): still customers on paper
    for _ in range(11):
        mcc = r.choices(mccs, mcc_w)[0]
        country = r.choices(ctry, ctry_w)[0]
        dba = new_name(mcc)
        m = add_merchant(dba, f"{dba} {COUNTRIES[country][3]}", mcc, country, r.choice(COUNTRIES[country][2]),
                         dt.date(2023, 1, 1) + dt.timedelta(days=r.randint(0, 900)))
        minfo[m]["special"] = "never"
    # deleted duplicate / abandoned applications (no terminals, no payments)
    for dba, mcc, country in [("Bakkerij de Vries", "5462", "NL"), ("GadgetHub Online", "5732", "NL"),
                              ("Urban Threads", "5691", "NL"), ("Pizza Corner", "5814", "BE"),
                              ("Salon Glow", "7230", "DE"), ("Hotel Seaside", "7011", "IE"),
                              ("Gift Emporium", "5999", "GB"), ("Taxi Green", "4121", "NL"),
                              ("Fysio Balance", "8099", "NL"), ("Deli Nordic", "5499", "SE"),
                              ("Boutique Moss", "5691", "FR"), ("Fresh Basket", "5411", "DE"),
                              ("Wok Express", "5814", "GB")]:
        onb = dt.date(2022, 9, 1) + dt.timedelta(days=r.randint(0, 980))
        deleted = dt.datetime.combine(onb + dt.timedelta(days=r.randint(1, 40)), dt.time(r.randint(8, 17), r.randint(0, 59)))
        m = add_merchant(dba, f"{dba} {COUNTRIES[country][3]}", mcc, country, r.choice(COUNTRIES[country][2]),
                         onb, deleted=deleted)
        minfo[m]["special"] = "deleted"
    # internal test / sandbox / demo accounts
    tests = {}
    for dba, country, load in [("QA Sandbox", "NL", 12.0), ("TEST - Integration Team", "GB", 2.0),
                               ("Demo Shop (do not use)", "DE", 0.8), ("Sales Demo Terminal 1", "NL", 0.5),
                               ("Sales Demo Terminal 2", "NL", 0.4), ("Certification Merchant MC", "NL", 0.6),
                               ("Certification Merchant Visa", "NL", 0.6), ("TEST SE Sandbox", "SE", 0.7),
                               ("ZZ Test Ecom", "IE", 1.0), ("UAT Merchant", "BE", 0.9)]:
        m = add_merchant(dba, f"{dba} {COUNTRIES[country][3]}", "5999", country, COUNTRIES[country][2][0],
                         dt.date(2021, 11, 1) + dt.timedelta(days=r.randint(0, 300)), test=True, size=load, cnp=0.5)
        tests[m] = load

    # ------------------------------------------------------------ terminals
    terminals, term_by_m = [], {}
    serial = 0

    def add_terminal(m, channel, model, start, end):
        nonlocal serial
        serial += 1
        tid = f"T{r.randint(1, 9)}{serial:06d}"
        sn = None if channel == "CNP" else f"{model.split()[0][:3].upper()}-{r.randint(10**7, 10**8 - 1)}"
        end_ts = None if end is None else dt.datetime.combine(end, dt.time(r.randint(9, 18), r.randint(0, 59)))
        terminals.append((tid, m, channel, model, sn, start, end_ts))
        term_by_m.setdefault(m, []).append(dict(id=tid, channel=channel, start=start, end=end))

    for m, info in minfo.items():
        if info["deleted"]:
            continue
        start = info["onboarded"] + dt.timedelta(days=r.randint(3, 25))
        if info["special"] == "never":
            if r.random() < 0.5:  # a reader was shipped but never used
                add_terminal(m, "CP", "PAX A920", start, None)
            continue
        close = info["closed"]
        if info["special"] == "bakery":
            add_terminal(m, "CP", "Ingenico iCT250", dt.date(2019, 4, 29), dt.date(2023, 5, 9))
            for _ in range(3):
                add_terminal(m, "CP", "PAX A920", dt.date(2023, 5, 9), None)
            continue
        if info["cnp"] > 0:
            add_terminal(m, "CNP", "Web gateway", start, close)
        if info["cnp"] < 1.0:
            n = 1 + min(5, int(info["size"] / 1.5)) + (1 if r.random() < 0.3 else 0)
            for _ in range(n):
                old = r.choice(["Ingenico iCT250", "Verifone VX520", "Ingenico Move/5000"])
                if start < dt.date(2022, 6, 1) and r.random() < 0.35:
                    swap = dt.date(2022, 8, 1) + dt.timedelta(days=r.randint(0, 900))
                    if close and swap >= close:
                        add_terminal(m, "CP", old, start, close)
                        continue
                    add_terminal(m, "CP", old, start, swap)
                    add_terminal(m, "CP", r.choice(["PAX A920", "Verifone V400m", "Ingenico Move/5000"]), swap, close)
                else:
                    model = old if start < dt.date(2021, 1, 1) else \
                        r.choice(["PAX A920", "Verifone V400m", "Ingenico Move/5000", "SoftPOS (Android)"])
                    add_terminal(m, "CP", model, start, close)
            if r.random() < 0.06:  # a spare reader, returned unused or still in a drawer
                add_terminal(m, "CP", "PAX A920", start + dt.timedelta(days=r.randint(0, 200)),
                             None if r.random() < 0.5 else start + dt.timedelta(days=r.randint(210, 400)))

    # ------------------------------------------------------------ payment attempts
    def rate_base(info, day):
        if info["deleted"] or info["special"] == "never":
            return 0.0
        live = info["onboarded"] + dt.timedelta(days=14)
        if day < live or (info["closed"] and day >= info["closed"]):
            return 0.0
        years = (day - FIRST_DAY).days / 365.25
        w = WEEKDAY[day.weekday()]
        if day.weekday() == 6 and info["country"] == "DE" and info["cnp"] < 1.0:
            w = 0.12 + 0.5 * info["cnp"]
        s = SEASON[day.month - 1]
        if info["mcc"] == "7011":
            s = 0.8 + 0.5 * (day.month in (6, 7, 8)) + 0.2 * (day.month == 12)
        return info["size"] * w * s * max(0.3, 1 + info["growth"] * years)

    real = [i for i in minfo.values() if not i["test"]]
    expected = sum(rate_base(i, d) for i in real for d in days(FIRST_DAY, LAST_DAY))
    scale = TARGET_TXNS / expected
    rows = []
    all_days = list(days(FIRST_DAY, LAST_DAY))
    span = (LAST_DAY - FIRST_DAY).days

    for m, info in minfo.items():
        if info["test"]:
            continue
        terms = term_by_m.get(m, [])
        cur, country, mcc = info["cur"], info["country"], info["mcc"]
        factor = COUNTRIES[country][4]
        ticket, sigma = MCCS[mcc][1], MCCS[mcc][2]
        for day in all_days:
            lam = rate_base(info, day) * scale
            n = poisson(r, lam)
            if not n:
                continue
            t_frac = (day - FIRST_DAY).days / span
            cp_terms = [t for t in terms if t["channel"] == "CP" and t["start"] <= day and (t["end"] is None or day < t["end"])]
            cnp_terms = [t for t in terms if t["channel"] == "CNP" and t["start"] <= day and (t["end"] is None or day < t["end"])]
            for _ in range(n):
                cnp = r.random() < info["cnp"]
                if cnp and not cnp_terms:
                    cnp = False
                if not cnp and not cp_terms:
                    if not cnp_terms:
                        break
                    cnp = True
                term = r.choice(cnp_terms if cnp else cp_terms)["id"]
                rows.append(make_txn(r, info, day, cnp, term, ticket, sigma, factor, t_frac))

    rt = random.Random(SEED * 1000 + 1)  # test accounts draw from their own stream
    for m, load in tests.items():
        info = minfo[m]
        terms = term_by_m.get(m, [])
        for day in all_days:
            if day < info["onboarded"] + dt.timedelta(days=20):
                continue
            lam = load * 0.8
            if info["dba"] == "QA Sandbox" and day.year == 2024:
                lam = 12.0   # load testing through 2024
            if info["dba"] == "TEST - Integration Team" and day.year == 2024 and day.month == 3:
                lam = 6.0    # certification of a new GBP flow
            for _ in range(poisson(rt, lam)):
                t = rt.choice(terms)
                rows.append(make_test_txn(rt, info, day, t, (day - FIRST_DAY).days / span))

    # ids in time order
    rows.sort(key=lambda x: (x["txnAt"], x["merchantId"], x["amountMinor"]))
    for i, x in enumerate(rows):
        x["txnId"] = 10_000_001 + i

    # ------------------------------------------------------------ disputes
    disputes = []
    r = random.Random(SEED * 1000 + 2)  # chargebacks and payouts: a stream of their own
    for x in rows:
        if x["status"] != "CAPT" or x.get("refundedMinor"):
            continue
        info = minfo[x["merchantId"]]
        if info["test"]:
            continue
        cnp = x["entryMode"] in ("81", "10")
        p = 0.008 if cnp else 0.0016
        fraud_share = 0.55 if cnp else 0.25
        sp = info["special"]
        if isinstance(sp, tuple) and sp[0] == "fraud":
            if x["txnAt"].year == 2024:
                p, fraud_share = sp[1], 0.9
            else:
                p, fraud_share = 0.006, 0.6
        if r.random() >= p:
            continue
        opened = x["capturedAt"].date() + dt.timedelta(days=r.randint(7, 75))
        if opened > LAST_DAY:
            continue
        net = "MASTERCARD" if x["cardBrand"] in ("MASTERCARD", "MAESTRO") else x["cardBrand"]
        fr, cons, proc = REASONS[net]
        u = r.random()
        if u < fraud_share:
            code = r.choice(fr)
        elif u < 0.93 or not proc:
            code = r.choice(cons)
        else:
            code = r.choice(proc)
        if code == "10.4" and isinstance(sp, tuple) and r.random() < 0.15:
            code = "10.5"
        amount = x["amountMinor"]
        if code in ("13.3", "4853", "C05") and r.random() < 0.3:
            amount = int(amount * r.uniform(0.3, 0.9))
        won_p = 0.12 if code in fr or code == "10.5" else 0.45
        if isinstance(sp, tuple):
            won_p = 0.08
        won = r.random() < won_p
        resolved = opened + dt.timedelta(days=r.randint(28, 80) if won else r.randint(6, 45))
        outcome = "WON" if won else "LOST"
        if resolved > LAST_DAY:
            outcome, resolved = None, None
        x["status"] = "CHBK"
        disputes.append(dict(txnId=x["txnId"], reasonCode=code, openedOn=opened,
                             respondBy=opened + dt.timedelta(days=20), disputedMinor=amount,
                             currencyCode=x["currencyCode"], outcome=outcome, resolvedOn=resolved,
                             merchantId=x["merchantId"]))
    disputes.sort(key=lambda d: (d["openedOn"], d["txnId"]))
    for i, d in enumerate(disputes):
        d["disputeId"] = 70_001 + i

    # ------------------------------------------------------------ settlement
    def settle_day(info, day):
        if info["payout"] == "DAILY":
            d = day + dt.timedelta(days=1)
            while d.weekday() >= 5:
                d += dt.timedelta(days=1)
            return d
        return day + dt.timedelta(days=7 - day.weekday())  # the Monday after the event's week

    batches = {}

    def batch(m, day):
        key = (m, settle_day(minfo[m], day))
        if key[1] > LAST_DAY:
            return None
        if key not in batches:
            batches[key] = dict(txnCount=0, gross=0, refunds=0, chargebacks=0, adjustments=0, fees=0, keys=[])
        return batches[key]

    for x in rows:
        if x["capturedAt"] is None:
            continue
        info = minfo[x["merchantId"]]
        b = batch(x["merchantId"], x["capturedAt"].date())
        if b is not None:
            bps, fixed = fee_for(info["plan"], x["currencyCode"], x["cardBrand"], x["capturedAt"].date())
            b["txnCount"] += 1
            b["gross"] += x["amountMinor"]
            b["fees"] += int(x["amountMinor"] * bps / 10000 + 0.5) + fixed
            b["keys"].append(x)
        if x.get("refundedMinor"):
            b2 = batch(x["merchantId"], x["refundedAt"].date())
            if b2 is not None:
                b2["refunds"] += x["refundedMinor"]
    for d in disputes:
        b = batch(d["merchantId"], d["openedOn"])
        if b is not None:
            b["chargebacks"] += d["disputedMinor"]
        if d["outcome"] == "WON":
            b = batch(d["merchantId"], d["resolvedOn"])
            if b is not None:
                b["adjustments"] += d["disputedMinor"]

    settlement = []
    for i, (key, b) in enumerate(sorted(batches.items(), key=lambda kv: (kv[0][1], kv[0][0]))):
        m, sday = key
        bid = 500_001 + i
        for x in b["keys"]:
            x["batchId"] = bid
        net = b["gross"] - b["refunds"] - b["chargebacks"] + b["adjustments"] - b["fees"]
        info = minfo[m]
        if net < 0:
            status, paid = "NEGATIVE", None
        elif info["dba"] == "GadgetHub Online" and dt.date(2024, 10, 14) <= sday <= dt.date(2024, 12, 20):
            status, paid = "HELD", None   # risk hold while the fraud spike was investigated
        else:
            status = "PAID"
            paid = dt.datetime.combine(sday, dt.time(5, 0)) + dt.timedelta(minutes=r.randint(0, 150))
        settlement.append((bid, m, sday, info["cur"], b["txnCount"], b["gross"], b["refunds"], b["chargebacks"],
                           b["adjustments"], b["fees"], net, status, paid))

    for x in rows:  # timestamps to whole seconds, as the switch records them
        for c in ("capturedAt", "refundedAt"):
            if x.get(c) is not None:
                x[c] = x[c].replace(microsecond=0)
    txn_cols = ["txnId", "merchantId", "terminalId", "txnAt", "amountMinor", "currencyCode", "cardBrand", "cardType",
                "issuerCountry", "entryMode", "responseCode", "authCode", "status", "capturedAt", "refundedMinor",
                "refundedAt", "batchId"]
    txns = [tuple(x.get(c) for c in txn_cols) for x in rows]
    disp_cols = ["disputeId", "txnId", "reasonCode", "openedOn", "respondBy", "disputedMinor", "currencyCode",
                 "outcome", "resolvedOn"]
    disp = [tuple(d[c] for c in disp_cols) for d in disputes]
    merch = [tuple(m) for m in merchants]
    return {"merchants": merch, "terminals": terminals, "cardTransactions": txns, "settlementBatches": settlement,
            "feeSchedule": fees, "disputes": disp, "refCodes": REF_CODES}


def local_time(r, mcc, cnp):
    if cnp:
        h = r.choices(range(24), weights=[2, 1, 1, 1, 1, 1, 2, 3, 4, 5, 6, 6, 7, 7, 6, 6, 6, 7, 8, 9, 10, 10, 8, 4])[0]
    elif mcc == "4121":
        h = r.choices(range(24), weights=[5, 5, 4, 3, 2, 2, 3, 5, 6, 5, 4, 4, 4, 4, 4, 4, 5, 6, 6, 5, 5, 5, 6, 6])[0]
    elif mcc in ("5812", "5814"):
        h = r.choices(range(10, 24), weights=[1, 3, 8, 8, 4, 2, 2, 3, 6, 10, 10, 7, 4, 2])[0]
    elif mcc == "7011":
        h = r.choices(range(6, 24), weights=[3, 6, 9, 10, 9, 6, 4, 3, 3, 3, 4, 4, 3, 3, 2, 2, 1, 1])[0]
    elif mcc == "5541":
        h = r.choices(range(5, 24), weights=[2, 4, 6, 6, 5, 5, 5, 5, 5, 5, 5, 6, 7, 7, 6, 4, 3, 2, 1])[0]
    else:
        h = r.choices(range(8, 22), weights=[2, 4, 6, 7, 8, 8, 7, 7, 7, 8, 8, 6, 3, 1])[0]
    return dt.time(h, r.randint(0, 59), r.randint(0, 59))


def to_utc(country, day, t):
    return dt.datetime.combine(day, t) - dt.timedelta(hours=utc_offset(country, day))


def pick_brand(r, country, mcc, t_frac):
    maestro = 0.0
    if country in ("NL", "BE", "DE"):
        maestro = max(0.02, 0.22 - 0.2 * t_frac)  # Maestro cards being replaced by Debit Mastercard
    amex = 0.09 if mcc in ("7011", "5732", "5691") else (0.02 if mcc in ("5462", "5814", "4121") else 0.05)
    if country == "GB":
        amex += 0.03
    visa = (1 - maestro - amex) * 0.55
    mc = 1 - maestro - amex - visa
    return r.choices(["VISA", "MASTERCARD", "MAESTRO", "AMEX"], [visa, mc, maestro, amex])[0]


def pick_type(r, brand):
    if brand == "MAESTRO":
        return "debit"
    if brand == "AMEX":
        return "credit"
    return r.choices(["debit", "credit", "prepaid"], [55, 40, 5])[0]


def make_txn(r, info, day, cnp, term, ticket, sigma, factor, t_frac):
    country, mcc, cur = info["country"], info["mcc"], info["cur"]
    at = to_utc(country, day, local_time(r, mcc, cnp))
    amount = max(50, int(round(r.lognormvariate(math.log(ticket * factor * 100), sigma))))
    brand = pick_brand(r, country, mcc, t_frac)
    ctype = pick_type(r, brand)
    issuer = country if r.random() < (0.72 if mcc == "7011" else 0.88) else \
        r.choice(["NL", "DE", "BE", "FR", "GB", "US", "IE", "ES", "IT", "SE", "CN", "PL"])
    if cnp:
        mode = "10" if r.random() < 0.14 else "81"
    else:
        limit = CONTACTLESS_LIMIT[cur]
        tap = (0.52 + 0.27 * t_frac) if amount <= limit else (0.12 + 0.2 * t_frac)  # phone wallets go higher
        u = r.random()
        if u < tap:
            mode = "07"
        elif u < tap + (0.035 - 0.025 * t_frac):
            mode = "90"
        elif mcc == "7011" and u < tap + 0.06:
            mode = "01"
        elif u < tap + 0.042:
            mode = "01"
        else:
            mode = "05"
    p_decl = 0.03 + (0.08 if ctype == "prepaid" else 0) + (0.03 if cnp else 0) + (0.02 if issuer != country else 0) \
        + (0.01 if brand == "AMEX" else 0) + (0.02 if mode == "90" else 0)
    x = dict(merchantId=info["id"], terminalId=term, txnAt=at, amountMinor=amount, currencyCode=cur,
             cardBrand=brand, cardType=ctype, issuerCountry=issuer, entryMode=mode)
    finish(r, x, info, p_decl, cnp)
    return x


def make_test_txn(r, info, day, term, t_frac):
    cnp = term["channel"] == "CNP"
    at = dt.datetime.combine(day, dt.time(r.randint(7, 19), r.randint(0, 59), r.randint(0, 59)))
    u = r.random()
    if u < 0.004:
        amount = 999999  # load-test maximum
    elif u < 0.75:
        amount = r.choice([1, 100, 100, 1000, 1000, 4242, 9999, 12345, 50000])
    else:
        amount = r.randint(100, 30000)
    if info["dba"] == "TEST - Integration Team" and day.year == 2024 and day.month == 3 and r.random() < 0.3:
        amount = 999999
    brand = r.choice(["VISA", "MASTERCARD", "AMEX", "VISA", "MASTERCARD"] + (["MAESTRO"] if info["cur"] == "EUR" else []))
    mode = ("81" if r.random() < 0.8 else "10") if cnp else r.choice(["05", "07", "07", "90", "01"])
    x = dict(merchantId=info["id"], terminalId=term["id"], txnAt=at, amountMinor=amount, currencyCode=info["cur"],
             cardBrand=brand, cardType=pick_type(r, brand), issuerCountry=info["country"], entryMode=mode)
    finish(r, x, info, 0.32, cnp, test=True)
    return x


def finish(r, x, info, p_decl, cnp, test=False):
    """Response, status, capture, refund for one attempt (chargebacks come later)."""
    at = x["txnAt"]
    if r.random() < p_decl:
        x.update(responseCode=r.choices(*DECLINE_CODES)[0], authCode=None, status="DECL", capturedAt=None)
        return
    x["responseCode"] = "00"
    x["authCode"] = "".join(r.choice("0123456789ABCDEFGHJKLMNPQRSTUVWXYZ") for _ in range(6))
    if r.random() < 0.012:
        x.update(status="VOID", capturedAt=None)
        return
    if cnp and r.random() < 0.004 and not test:
        x.update(status="AUTH", capturedAt=None)  # never captured: the authorisation just expired
        return
    if info["mcc"] == "7011" and not cnp:
        cap = at + dt.timedelta(days=r.randint(1, 6), hours=r.uniform(-3, 3))
    elif cnp:
        cap = at + dt.timedelta(hours=r.uniform(0.05, 70))
    else:  # end-of-day batch close on the terminal, around 23:30 local
        local_close = dt.datetime.combine(at.date(), dt.time(21, 30)) + dt.timedelta(minutes=r.randint(0, 40))
        cap = local_close if local_close > at + dt.timedelta(minutes=5) else at + dt.timedelta(minutes=r.randint(6, 90))
    if cap >= EXTRACT_END:
        x.update(status="AUTH", capturedAt=None)
        return
    x.update(status="CAPT", capturedAt=cap)
    p_ref = MCCS[info["mcc"]][4] * (2.2 if cnp else 1.0)
    if test:
        p_ref = 0.05
    if r.random() < p_ref:
        when = cap + dt.timedelta(days=r.randint(1, 45), hours=r.uniform(0, 10))
        if when < EXTRACT_END:
            part = x["amountMinor"] if r.random() < 0.65 else max(1, int(x["amountMinor"] * r.uniform(0.1, 0.9)))
            x.update(status="RFND", refundedMinor=part, refundedAt=when)


def main() -> None:
    _common.ensure_venv()
    import duckdb
    import pandas as pd

    path = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else DEFAULT_PATH)
    tables = build()
    fd, tmp = tempfile.mkstemp(suffix=".duckdb", dir=os.path.dirname(path))
    os.close(fd)
    os.remove(tmp)  # DuckDB wants to create the file itself
    try:
        con = duckdb.connect(tmp)
        con.execute(f"CREATE SCHEMA {SCHEMA}")
        for ddl in DDL:
            con.execute(ddl)
        for table, comment in TABLE_COMMENTS.items():
            con.execute(f"COMMENT ON TABLE {SCHEMA}.\"{table}\" IS '" + comment.replace("'", "''") + "'")
        for (table, column), comment in COLUMN_COMMENTS.items():
            con.execute(f"COMMENT ON COLUMN {SCHEMA}.\"{table}\".\"{column}\" IS '" + comment.replace("'", "''") + "'")
        for table, rows in tables.items():
            cols = [c[0] for c in con.execute(f'DESCRIBE {SCHEMA}."{table}"').fetchall()]
            frame = pd.DataFrame.from_records(rows, columns=cols)
            for c in frame.columns:  # whole-number columns with NULLs stay integers
                if frame[c].dtype == object and frame[c].map(lambda v: v is None or isinstance(v, int)).all() \
                        and frame[c].notna().any() and not frame[c].map(lambda v: isinstance(v, bool)).any():
                    frame[c] = frame[c].astype("Int64")
            con.register("frame", frame)
            collist = ", ".join(f'"{c}"' for c in cols)
            con.execute(f'INSERT INTO {SCHEMA}."{table}" ({collist}) SELECT {collist} FROM frame')
            con.unregister("frame")
        counts = {f'{SCHEMA}."{t}"' if t != t.lower() else f"{SCHEMA}.{t}":
                  con.execute(f'SELECT count(*) FROM {SCHEMA}."{t}"').fetchone()[0] for t in tables}
        con.execute("CHECKPOINT")
        con.close()
        os.replace(tmp, path)
    finally:
        for leftover in (tmp, tmp + ".wal"):
            if os.path.exists(leftover):
                os.remove(leftover)
    print(f"loaded the synthetic card acquirer into DuckDB file {path}:")
    _common.print_counts(counts, f"duckdb:///{path}",
                         f"(tables are in schema {SCHEMA}, not main: WAREHOUSE_SCHEMAS={SCHEMA} names it; "
                         "DuckDB has no users: payments_reader = opening the file read-only, as the bot does)")


if __name__ == "__main__":
    main()
