import { action } from "../../platform/policy.ts";

/** Members and invitations (spec 01 §6): any member sees the list and may leave; admins manage. */
export const MEMBER = {
  list: action("member.list", "view"),
  leave: action("member.leave", "view"),
  manage: action("member.manage", "admin"),
  invite: action("member.invite", "admin"),
};
