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
  /** Who asked: decides what they may ask for. */
  readonly role: Role;
  readonly place: Place;
  /** Where the answer goes is a staff place: decides what the answer may hold, whoever asked. */
  readonly staffPlace: boolean;
}

export function audienceOf(chat: Chat, userId: string | undefined, staff: StaffLists): Audience {
  const listedUser = userId !== undefined && staff.staffUserIds.has(userId);
  const staffPlace = isStaffPlace(chat, staff);
  if (chat.type === "user") return { role: listedUser ? "staff" : "customer", place: "direct", staffPlace };
  // A staff group vouches for everyone in it, including members LINE sends no user id for.
  if (staffPlace) return { role: "staff", place: "staff_group", staffPlace };
  return { role: listedUser ? "staff" : "customer", place: "customer_group", staffPlace };
}

/**
 * Whether a chat is a staff place, judged by the destination alone: a listed staff user's 1:1 chat, or a
 * listed staff group or room. Only there may the shop's private data go, whoever asked.
 */
export function isStaffPlace(chat: Chat, staff: StaffLists): boolean {
  return chat.type === "user" ? staff.staffUserIds.has(chat.id) : staff.staffGroupIds.has(chat.id);
}

/** The chat a push goes to, from its id alone: LINE's group ids start with C, room ids with R, user ids with U. */
export function chatOfId(id: string): Chat {
  return { type: id.startsWith("C") ? "group" : id.startsWith("R") ? "room" : "user", id };
}

/** Whether anyone at all is staff: with both lists empty, private commands are refused to everyone. */
export function hasStaff(staff: StaffLists): boolean {
  return staff.staffUserIds.size > 0 || staff.staffGroupIds.size > 0;
}
