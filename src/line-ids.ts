// LINE's ids, checked by their shape before one goes into a LINE URL path or a Redis key: a user id is U,
// a group id C, a room id R, each followed by 32 lower-case hex digits. Webhook events and settings are
// outside input; an id of another shape is refused where it enters, never passed on.

const USER_ID = /^U[0-9a-f]{32}$/;
const GROUP_ID = /^C[0-9a-f]{32}$/;
const ROOM_ID = /^R[0-9a-f]{32}$/;

export function isUserId(value: string): boolean {
  return USER_ID.test(value);
}

export function isGroupId(value: string): boolean {
  return GROUP_ID.test(value);
}

export function isRoomId(value: string): boolean {
  return ROOM_ID.test(value);
}

/** A group's or a room's id: the chats that several people share. */
export function isGroupOrRoomId(value: string): boolean {
  return GROUP_ID.test(value) || ROOM_ID.test(value);
}

/** The id of any chat the bot can answer or push to. */
export function isChatId(value: string): boolean {
  return USER_ID.test(value) || GROUP_ID.test(value) || ROOM_ID.test(value);
}
