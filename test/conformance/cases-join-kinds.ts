/**
 * Conformance cases: comma and CROSS joins, USING and NATURAL, RIGHT and
 * FULL joins — their rows (NULLs for the side without a match, unmatched
 * right rows after the matched ones), `*` showing a USING column once, WHERE
 * applied after an outer join, chains, and the errors of each form.
 */

import { and, col, eq, isNull, ne } from "../../src/api/expressions.js";
import { AND, C, I, L, NULL, c, err, misuse, rows, sel, type Case } from "./dsl.js";

const memberTeam = C("=", "teams.id", I("members.team_id"));
const badgeAward = C("=", "badges.member_id", I("awards.member_id"));
const paidOrder = AND(C("=", "orders.user_id", I("users.id")), C("=", "orders.paid", true));
const fluentPaid = and(eq("orders.user_id", col("users.id")), eq("orders.paid", true));
const NI = ["users.name", "orders.id"];

export const joinKindCases: readonly Case[] = [
  c("comma join, matched by WHERE", (t) => t("members").select("members.name", "teams.name").crossJoin("teams").where(eq("teams.id", col("members.team_id"))),
    sel("members", ["members.name", "teams.name"], { joins: [{ type: "cross", table: "teams" }], where: memberTeam }),
    "SELECT members.name, teams.name FROM members, teams WHERE teams.id = members.team_id",
    rows(["members.name", "teams.name"], ["m1", "red"], ["m2", "red"], ["m3", "blue"])),
  c("CROSS JOIN: every pair, left-table order", (t) => t("teams").select("teams.name", "members.name").crossJoin("members"),
    sel("teams", ["teams.name", "members.name"], { joins: [{ type: "cross", table: "members" }] }),
    "SELECT teams.name, members.name FROM teams CROSS JOIN members",
    rows(["teams.name", "members.name"], ["red", "m1"], ["red", "m2"], ["red", "m3"], ["blue", "m1"], ["blue", "m2"], ["blue", "m3"])),
  c("comma join of three, one WHERE", (t) => t("teams").select("teams.name", "badges.label").crossJoin("members").crossJoin("badges")
      .where(and(eq("members.team_id", col("teams.id")), eq("badges.member_id", col("members.id")), eq("teams.id", 1))),
    sel("teams", ["teams.name", "badges.label"], {
      joins: [{ type: "cross", table: "members" }, { type: "cross", table: "badges" }],
      where: AND(C("=", "members.team_id", I("teams.id")), C("=", "badges.member_id", I("members.id")), C("=", "teams.id", 1)),
    }),
    "SELECT teams.name, badges.label FROM teams, members, badges WHERE members.team_id = teams.id AND badges.member_id = members.id AND teams.id = 1",
    rows(["teams.name", "badges.label"], ["red", "gold"], ["red", "x"], ["red", "silver"])),
  c("JOIN … USING: * shows the column once, the left side's", (t) => t("badges").select().join("awards", { using: ["member_id"] }),
    sel("badges", "*", { joins: [{ type: "inner", table: "awards", using: ["member_id"] }] }),
    "SELECT * FROM badges JOIN awards USING (member_id)",
    rows(["badges.id", "badges.member_id", "badges.label", "awards.id"], [102, 12, "bronze", 1])),
  c("a USING column unqualified is not ambiguous; qualified, each side's", (t) => t("badges").select("member_id", "awards.member_id", "label").join("awards", { using: ["member_id"] }),
    sel("badges", ["member_id", "awards.member_id", "label"], { joins: [{ type: "inner", table: "awards", using: ["member_id"] }] }),
    "SELECT member_id, awards.member_id, label FROM badges JOIN awards USING (member_id)",
    rows(["member_id", "awards.member_id", "label"], [12, 12, "bronze"])),
  c("LEFT OUTER JOIN … USING keeps the left rows", (t) => t("badges").select("badges.id", "member_id", "awards.id").leftJoin("awards", { using: ["member_id"] }),
    sel("badges", ["badges.id", "member_id", "awards.id"], { joins: [{ type: "left", table: "awards", using: ["member_id"] }] }),
    "SELECT badges.id, member_id, awards.id FROM badges LEFT OUTER JOIN awards USING (member_id)",
    rows(["badges.id", "member_id", "awards.id"], [100, 10, null], [101, 11, null], [102, 12, 1], [103, 10, null])),
  c("t.* after USING is every column of t", (t) => t("badges").select("awards.*").join("awards", { using: ["member_id"] }),
    sel("badges", ["awards.*"], { joins: [{ type: "inner", table: "awards", using: ["member_id"] }] }),
    "SELECT awards.* FROM badges JOIN awards USING (member_id)",
    rows(["awards.id", "awards.member_id"], [1, 12])),
  c("NATURAL JOIN: every common column, each shown once", (t) => t("teams").select().join("teams", { natural: true }, { as: "t2" }),
    sel("teams", "*", { joins: [{ type: "inner", table: "teams", as: "t2", natural: true }] }),
    "SELECT * FROM teams NATURAL JOIN teams AS t2",
    rows(["teams.id", "teams.name"], [1, "red"], [2, "blue"])),
  c("NATURAL LEFT JOIN over two common columns", (t) => t("badges").select().leftJoin("awards", { natural: true }),
    sel("badges", "*", { joins: [{ type: "left", table: "awards", natural: true }] }),
    "SELECT * FROM badges NATURAL LEFT JOIN awards",
    rows(["badges.id", "badges.member_id", "badges.label"], [100, 10, "gold"], [101, 11, "silver"], [102, 12, "bronze"], [103, 10, "x"])),
  c("RIGHT JOIN: matched rows, then the right side's unmatched ones with NULLs", (t) => t("awards").select("awards.id", "badges.label").rightJoin("badges", eq("badges.member_id", col("awards.member_id"))),
    sel("awards", ["awards.id", "badges.label"], { joins: [{ type: "right", table: "badges", on: badgeAward }] }),
    "SELECT awards.id, badges.label FROM awards RIGHT JOIN badges ON badges.member_id = awards.member_id",
    rows(["awards.id", "badges.label"], [1, "bronze"], [null, "gold"], [null, "silver"], [null, "x"])),
  c("RIGHT JOIN … USING: the column reads the right side where the left has none", (t) => t("awards").select().rightJoin("badges", { using: ["member_id"] }),
    sel("awards", "*", { joins: [{ type: "right", table: "badges", using: ["member_id"] }] }),
    "SELECT * FROM awards RIGHT OUTER JOIN badges USING (member_id)",
    rows(["awards.id", "awards.member_id", "badges.id", "badges.label"], [1, 12, 102, "bronze"], [null, 10, 100, "gold"], [null, 11, 101, "silver"], [null, 10, 103, "x"])),
  c("FULL JOIN: both sides' unmatched rows; ON conditions stay in ON", (t) => t("users").select("users.name", "orders.id").fullJoin("orders", fluentPaid),
    sel("users", NI, { joins: [{ type: "full", table: "orders", on: paidOrder }] }),
    "SELECT users.name, orders.id FROM users FULL JOIN orders ON orders.user_id = users.id AND orders.paid = TRUE",
    rows(NI, ["Ada", 1], ["Bob", 3], ["Cy", null], ["Dee", null], ["Eve", null], [null, 2], [null, 4], [null, 5], [null, 6])),
  c("FULL OUTER JOIN, WHERE applied after the join", (t) => t("users").select("users.name", "orders.id").fullJoin("orders", fluentPaid).where(isNull("users.name")),
    sel("users", NI, { joins: [{ type: "full", table: "orders", on: paidOrder }], where: NULL("users.name") }),
    "SELECT users.name, orders.id FROM users FULL OUTER JOIN orders ON orders.user_id = users.id AND orders.paid = TRUE WHERE users.name IS NULL",
    rows(NI, [null, 2], [null, 4], [null, 5], [null, 6])),
  c("RIGHT JOIN, a WHERE on the left table's key filters after the join", (t) => t("users").select("users.name", "orders.id").rightJoin("orders", eq("orders.user_id", col("users.id"))).where({ "users.id": "u2" }),
    sel("users", NI, { joins: [{ type: "right", table: "orders", on: C("=", "orders.user_id", I("users.id")) }], where: C("=", "users.id", "u2") }),
    "SELECT users.name, orders.id FROM users RIGHT JOIN orders ON orders.user_id = users.id WHERE users.id = 'u2'",
    rows(NI, ["Bob", 3])),
  c("FULL JOIN … USING: the unqualified column coalesces both sides", (t) => t("awards").select("member_id").fullJoin("badges", { using: ["member_id"] }),
    sel("awards", ["member_id"], { joins: [{ type: "full", table: "badges", using: ["member_id"] }] }),
    "SELECT member_id FROM awards FULL JOIN badges USING (member_id)",
    rows(["member_id"], [12], [10], [11], [10])),
  c("a chain: inner join, then RIGHT JOIN NULLs every earlier source", (t) => t("teams").select("teams.name", "members.name", "badges.label")
      .join("members", and(eq("members.team_id", col("teams.id")), eq("teams.id", 2))).rightJoin("badges", eq("badges.member_id", col("members.id"))),
    sel("teams", ["teams.name", "members.name", "badges.label"], {
      joins: [
        { type: "inner", table: "members", on: AND(C("=", "members.team_id", I("teams.id")), C("=", "teams.id", 2)) },
        { type: "right", table: "badges", on: C("=", "badges.member_id", I("members.id")) },
      ],
    }),
    "SELECT teams.name, members.name, badges.label FROM teams JOIN members ON members.team_id = teams.id AND teams.id = 2 RIGHT JOIN badges ON badges.member_id = members.id",
    rows(["teams.name", "members.name", "badges.label"], ["blue", "m3", "bronze"], [null, null, "gold"], [null, null, "silver"], [null, null, "x"])),
  c("a chain: RIGHT JOIN, then LEFT JOIN from the right side", (t) => t("awards").select("awards.id", "badges.label", "members.name")
      .rightJoin("badges", eq("badges.member_id", col("awards.member_id"))).leftJoin("members", and(eq("members.id", col("badges.member_id")), ne("members.name", "m1"))),
    sel("awards", ["awards.id", "badges.label", "members.name"], {
      joins: [
        { type: "right", table: "badges", on: badgeAward },
        { type: "left", table: "members", on: AND(C("=", "members.id", I("badges.member_id")), C("<>", "members.name", "m1")) },
      ],
    }),
    "SELECT awards.id, badges.label, members.name FROM awards RIGHT JOIN badges ON badges.member_id = awards.member_id LEFT JOIN members ON members.id = badges.member_id AND members.name <> 'm1'",
    rows(["awards.id", "badges.label", "members.name"], [1, "bronze", "m3"], [null, "gold", null], [null, "silver", "m2"], [null, "x", null])),
  c("USING a column the left side lacks", (t) => t("teams").select().join("badges", { using: ["label"] }),
    sel("teams", "*", { joins: [{ type: "inner", table: "badges", using: ["label"] }] }), "SELECT * FROM teams JOIN badges USING (label)", err("unknown_column")),
  c("USING a column the right side lacks", (t) => t("teams").select().join("badges", { using: ["name"] }),
    sel("teams", "*", { joins: [{ type: "inner", table: "badges", using: ["name"] }] }), "SELECT * FROM teams JOIN badges USING (name)", err("unknown_column")),
  c("USING a column two sources on the left have", (t) => t("teams").select().crossJoin("members").join("badges", { using: ["id"] }),
    sel("teams", "*", { joins: [{ type: "cross", table: "members" }, { type: "inner", table: "badges", using: ["id"] }] }),
    "SELECT * FROM teams, members JOIN badges USING (id)", err("ambiguous_column")),
  c("USING columns of types that do not compare", (t) => t("users").select().join("orders", { using: ["id"] }),
    sel("users", "*", { joins: [{ type: "inner", table: "orders", using: ["id"] }] }), "SELECT * FROM users JOIN orders USING (id)", err("type_mismatch")),
  c("USING names a column twice", (t) => t("badges").select().join("awards", { using: ["id", "id"] }),
    sel("badges", "*", { joins: [{ type: "inner", table: "awards", using: ["id", "id"] }] }), "SELECT * FROM badges JOIN awards USING (id, id)", misuse),
  c("an outer join needs a condition", null, sel("teams", "*", { joins: [{ type: "left", table: "members" }] }), "SELECT * FROM teams LEFT JOIN members", misuse),
  c("a cross join takes no condition", null, sel("teams", "*", { joins: [{ type: "cross", table: "members", on: L(true) }] }), null, err("invalid_request")),
  c("a join takes one condition", null, sel("teams", "*", { joins: [{ type: "inner", table: "members", on: L(true), using: ["id"] }] }), null, err("invalid_request")),
  c("NATURAL takes no ON", null, null, "SELECT * FROM teams NATURAL JOIN members ON TRUE", err("sql_error")),
];
