"""Warehouses read from their URL alone, in the shapes the blind sets showed: legacy type-tagged names
('tblGift', 'curAmount'), a person's birth date that never dates their rows, money words for gifts, an
adjective whose measure belongs to other rows ('the biggest gift' beside a party's size), 'how much' never
answered with a count, a noun compound counting its last noun ('patient visits'), the total and the average
of one column told apart by the aggregation said ('avg visit length'), a unit alone in parentheses, a
verb and its particle naming a date ('picked up in q1 2024'), and a table's own count said in the plural."""

from __future__ import annotations

import pytest

from agent.chatbi.meaning import ColumnMeaning
from agent.chatbi.sentences import answer_sentence
from agent.semantic.nlq.extract import extract_intent
from agent.text.words import split_name
from tests.support.small_warehouse import assert_reads_as, bootstrapped

LEGACY = """
CREATE TABLE "tblDonor" ("lngDonorID" INTEGER PRIMARY KEY, "strFirstName" VARCHAR NOT NULL,
                         "strLastName" VARCHAR NOT NULL, "dtBirthDate" DATE, "dtCreated" DATE NOT NULL);
CREATE TABLE "tblGift" ("lngGiftID" INTEGER PRIMARY KEY, "lngDonorID" INTEGER NOT NULL, "dtGiftDate" DATE NOT NULL,
                        "curAmount" DECIMAL(10, 2) NOT NULL, "blnAnonymous" BOOLEAN NOT NULL);
CREATE TABLE "tblEventAttendee" ("lngAttendeeID" INTEGER PRIMARY KEY, "strName" VARCHAR NOT NULL,
                                 "intPartySize" INTEGER NOT NULL);
INSERT INTO "tblDonor" VALUES (1, 'Ann', 'Lee', '1960-05-01', '2022-01-03'), (2, 'Bo', 'Ray', '1985-02-11', '2023-03-04'),
  (3, 'Cy', 'Oak', NULL, '2023-06-01');
INSERT INTO "tblGift" VALUES (1, 1, '2022-12-20', 500, false), (2, 1, '2023-01-05', 50, false),
  (3, 2, '2023-06-30', 120, true), (4, 2, '2023-12-24', 1000, false), (5, 3, '2024-02-01', 75, false);
INSERT INTO "tblEventAttendee" VALUES (1, 'Dee', 2), (2, 'Eve', 6), (3, 'Fay', 1);
"""

CLINIC = """
CREATE TABLE doctors (doctor_id INTEGER PRIMARY KEY, doc_name VARCHAR NOT NULL, doc_specialty VARCHAR NOT NULL,
                      clinic VARCHAR NOT NULL);
CREATE TABLE patients (patient_id INTEGER PRIMARY KEY, pat_name VARCHAR NOT NULL);
CREATE TABLE appointments (appointment_id INTEGER PRIMARY KEY, doctor_id INTEGER NOT NULL REFERENCES doctors (doctor_id),
                           patient_id INTEGER NOT NULL REFERENCES patients (patient_id),
                           appt_scheduled_at TIMESTAMP NOT NULL, appt_visit_type VARCHAR NOT NULL,
                           appt_duration_min INTEGER);
COMMENT ON COLUMN appointments.appt_visit_type IS 'I = in person, T = telehealth';
COMMENT ON COLUMN appointments.appt_duration_min IS 'actual length of the visit in minutes';
CREATE TABLE shipment (shipment_id INTEGER PRIMARY KEY, service_level VARCHAR NOT NULL, booked_at DATE NOT NULL,
                       pickup_date DATE);
COMMENT ON COLUMN shipment.service_level IS 'S = standard, X = express';
INSERT INTO doctors VALUES (1, 'Ada Park', 'Cardiology', 'North'), (2, 'Ben Cho', 'Dermatology', 'South'),
  (3, 'Cal Moss', 'Cardiology', 'South');
INSERT INTO patients VALUES (1, 'Dee'), (2, 'Eli'), (3, 'Flo');
INSERT INTO appointments VALUES (1, 1, 1, '2023-02-01 09:00', 'I', 40), (2, 1, 2, '2023-05-02 10:00', 'T', 20),
  (3, 2, 1, '2024-01-10 11:00', 'T', 15), (4, 3, 3, '2024-03-20 09:30', 'I', 35), (5, 3, 1, '2024-06-28 14:00', 'T', NULL),
  (6, 2, 2, '2024-07-01 08:00', 'I', 25), (7, 1, 3, '2024-08-01 08:00', 'I', 30);
INSERT INTO shipment VALUES (1, 'X', '2023-12-28', '2024-01-02'), (2, 'X', '2024-01-15', '2024-01-16'),
  (3, 'S', '2024-02-01', '2024-02-03'), (4, 'X', '2024-03-30', '2024-04-02'), (5, 'X', '2024-05-05', NULL);
"""


@pytest.fixture(scope="module")
def legacy(tmp_path_factory):
    with bootstrapped(tmp_path_factory.mktemp("legacy"), "legacy_names", LEGACY) as work:
        yield work


@pytest.fixture(scope="module")
def clinic(tmp_path_factory):
    with bootstrapped(tmp_path_factory.mktemp("compounds"), "noun_compounds", CLINIC) as work:
        yield work


def test_a_legacy_type_tag_is_no_word_of_the_name():
    assert split_name("tblGift") == "gift"
    assert split_name("strFirstName") == "first name"
    assert split_name("lngDonorID") == "donor id"
    assert split_name("curAmount") == "amount"
    # a tag only counts before a capital: these are words
    assert split_name("intervalStart") == "interval start"
    assert split_name("strength") == "strength"


def test_legacy_names_read_as_their_words(legacy):
    assert_reads_as(legacy, "how many donors do we have", 'SELECT count(*) FROM "tblDonor"')
    assert_reads_as(legacy, "total donations in 2023?",
                    'SELECT sum("curAmount") FROM "tblGift" WHERE year("dtGiftDate") = 2023')


def test_a_birth_date_never_dates_the_rows(legacy):
    donors = next(t for t in legacy.semantic.tables if "donor" in t.entity_words)
    assert donors.agg_time is not None and "birth" not in donors.agg_time


def test_an_adjectives_measure_of_other_rows_is_asked_about(legacy):
    # 'big' ranks by a party's size, which no gift has: never the largest party size per year
    read = extract_intent("biggest single gift each year", legacy.semantic, legacy.values)
    assert read.intent is None


def test_how_much_is_never_answered_with_a_count(legacy):
    read = extract_intent("how much did the event attendees bring", legacy.semantic, legacy.values)
    assert read.intent is None and "How much" in (read.reason or "")


def test_the_last_noun_of_a_compound_is_counted(clinic):
    assert_reads_as(clinic, "how many patient visits did each clinic do in 2024",
                    "SELECT d.clinic, count(*) FROM appointments a JOIN doctors d USING (doctor_id) "
                    "WHERE year(a.appt_scheduled_at) = 2024 GROUP BY d.clinic")


def test_the_aggregation_said_picks_the_average_and_a_unit_in_parentheses_is_read(clinic):
    read = extract_intent("avg visit length per specialty (mins)", clinic.semantic, clinic.values)
    assert read.intent is not None and not read.ignored_words, read.reason
    assert_reads_as(clinic, "avg visit length per specialty (mins)",
                    "SELECT d.doc_specialty, avg(a.appt_duration_min) FROM appointments a JOIN doctors d "
                    "USING (doctor_id) GROUP BY d.doc_specialty")


def test_a_verb_and_its_particle_name_the_date_and_a_quarter_its_year(clinic):
    assert_reads_as(clinic, "how many express shipments did we pick up in q1 2024",
                    "SELECT count(*) FROM shipment WHERE service_level = 'X' "
                    "AND pickup_date >= '2024-01-01' AND pickup_date < '2024-04-01'")


def test_a_tables_own_count_is_said_in_the_plural():
    facts = {"shape": "single_value", "value": 624, "measure": "shipment_count"}
    sentence = answer_sentence(facts, ["shipment_count"], {"shipment_count": ColumnMeaning(label="shipment count",
                                                                                           aggregate="count")})
    assert sentence == "There are 624 shipments."


CODED = """
CREATE TABLE clinics (clinic_id INTEGER PRIMARY KEY, clinic_name VARCHAR NOT NULL);
CREATE TABLE visits (visit_id INTEGER PRIMARY KEY, clinic_id INTEGER NOT NULL REFERENCES clinics (clinic_id),
                     visit_status VARCHAR NOT NULL, booking_channel VARCHAR NOT NULL);
COMMENT ON COLUMN visits.visit_status IS 'C = completed, N = no-show, X = cancelled';
COMMENT ON COLUMN visits.booking_channel IS 'WB = our website, OT = online travel agency, PH = phone';
CREATE TABLE claims (claim_id INTEGER PRIMARY KEY, payer VARCHAR NOT NULL, claim_status VARCHAR NOT NULL);
COMMENT ON TABLE claims IS 'Insurance claims, one per completed visit';
COMMENT ON COLUMN claims.claim_status IS 'P = paid, D = denied';
INSERT INTO clinics VALUES (1, 'North'), (2, 'South');
INSERT INTO visits VALUES (1, 1, 'C', 'WB'), (2, 1, 'N', 'OT'), (3, 1, 'C', 'OT'), (4, 2, 'N', 'PH'), (5, 2, 'N', 'WB'),
  (6, 2, 'X', 'OT'), (7, 2, 'C', 'WB');
INSERT INTO claims VALUES (1, 'Pacific Union Insurance', 'P'), (2, 'Pacific Union Insurance', 'D'), (3, 'Medicare', 'P'),
  (4, 'Medicare', 'P');
"""


@pytest.fixture(scope="module")
def coded(tmp_path_factory):
    with bootstrapped(tmp_path_factory.mktemp("coded"), "coded_rates", CODED) as work:
        yield work


def test_a_value_rate_is_the_share_of_rows_with_that_value(coded):
    assert_reads_as(coded, "no-show rate by clinic?",
                    "SELECT c.clinic_name, avg(CASE WHEN v.visit_status = 'N' THEN 1.0 ELSE 0 END) "
                    "FROM visits v JOIN clinics c USING (clinic_id) GROUP BY 1")


def test_the_initials_of_a_coded_name_name_it(coded):
    assert_reads_as(coded, "what % of visits come through OTAs?",
                    "SELECT 100.0 * avg(CASE WHEN booking_channel = 'OT' THEN 1 ELSE 0 END) FROM visits")


def test_a_word_the_tables_description_puts_before_its_rows_is_no_value(coded):
    # 'insurance' is also a word of a payer's name; the claims table calls its rows 'insurance claims'
    assert_reads_as(coded, "what percent of our insurance claims get denied?",
                    "SELECT 100.0 * avg(CASE WHEN claim_status = 'D' THEN 1 ELSE 0 END) FROM claims")


UPPER = """
CREATE SCHEMA ops;
CREATE TABLE ops.TECHNICIAN (TECH_ID INTEGER PRIMARY KEY, TECH_NM VARCHAR NOT NULL, HIRE_DT DATE NOT NULL);
CREATE TABLE ops.METER_READING (READ_ID INTEGER PRIMARY KEY, READ_DT DATE NOT NULL, KWH_QTY DECIMAL(10, 2));
INSERT INTO ops.TECHNICIAN VALUES (1, 'Ann', '2020-01-01'), (2, 'Bo', '2021-05-01'), (3, 'Cy', '2023-02-01');
INSERT INTO ops.METER_READING VALUES (1, '2024-03-01', 120.5), (2, '2024-03-20', 80), (3, '2024-04-02', 50);
"""


@pytest.fixture(scope="module")
def upper(tmp_path_factory):
    with bootstrapped(tmp_path_factory.mktemp("upper"), "upper_names", UPPER) as work:
        yield work


def test_a_short_form_in_a_question_is_the_models_word(upper):
    assert_reads_as(upper, "how many techs do we have", "SELECT count(*) FROM ops.TECHNICIAN")


def test_a_unit_said_before_a_quantity_word_names_the_amount(upper):
    assert_reads_as(upper, "total kwh we delivered in march 2024",
                    "SELECT sum(KWH_QTY) FROM ops.METER_READING WHERE READ_DT BETWEEN '2024-03-01' AND '2024-03-31'")
