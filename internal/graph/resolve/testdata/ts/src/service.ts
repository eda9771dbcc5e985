import React from "react";
import format from "./lib/util";
import * as u from "./lib/util";
import { Base } from "./lib/base";
import { load } from "./lib/util";
import { parse as p } from "@lib/util";
import { later } from "./later";

export class Service extends Base {
  run(): void {
    load("x");
    u.parse("y");
    p("z");
    format("w");
    this.save();
    React.createElement("div");
    close();
    later();
  }
}
