// Who is speaking, and where: staff or customer, in a 1:1 chat, a staff group or a customer group.
// Pure: the staff lists come from the configuration, the chat and user from the event.

export type ChatType = "user" | "group" | "room";

/** Where an event came from; `id` is the push target (groupId, roomId or userId). */
export interface Chat {
  readonly type: ChatType;
  readonly id: string;
}

export interface StaffLists {
  /** Users who are staff wherever they speak. */
  readonly staffUserIds: ReadonlySet<string>;
  /** Groups and rooms whose every member counts as staff. */
  readonly staffGroupIds: ReadonlySet<string>;
}

export type Role = "staff" | "customer";

/**
 * `direct`: a 1:1 chat. `staff_group`: a listed group, where everyone is staff. `customer_group`: any
 * other group or room, even with staff in it, since customers there see every reply.
 */
export type Place = "direct" | "staff_group" | "customer_group";

export interface Audience {
  readonly role: Role;
  readonly place: Place;
}

export function audienceOf(chat: Chat, userId: string | undefined, staff: StaffLists): Audience {
  const listedUser = userId !== undefined && staff.staffUserIds.has(userId);
  if (chat.type === "user") return { role: listedUser ? "staff" : "customer", place: "direct" };
  // A staff group vouches for everyone in it, including members LINE sends no user id for.
  if (staff.staffGroupIds.has(chat.id)) return { role: "staff", place: "staff_group" };
  return { role: listedUser ? "staff" : "customer", place: "customer_group" };
}

/** Private data (the shop's checks, names, amounts, tokens, package) may be shown here. */
export function mayShowPrivate(audience: Audience): boolean {
  return audience.role === "staff" && audience.place !== "customer_group";
}

/** Whether anyone at all is staff: with both lists empty, private commands are refused to everyone. */
export function hasStaff(staff: StaffLists): boolean {
  return staff.staffUserIds.size > 0 || staff.staffGroupIds.size > 0;
}
