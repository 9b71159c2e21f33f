// The stand-in's rich menu endpoints through the real SDK clients (MessagingApiClient and, for images,
// MessagingApiBlobClient, both on the stand-in's URL): LINE's rules, status codes and bodies, and what the
// LINE app would show each user.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { messagingApi } from "@line/bot-sdk";
import { startLinePlatform } from "../src/platform.js";
import type { LinePlatform, RichMenuChange } from "../src/platform.js";
import { readImageInfo } from "../src/image-info.js";
import { failure, jpegHeader, menuPng, menuRequest, noisyPng, pngBlob } from "./rich-menu-fixtures.js";

const TOKEN = "rich-menu-test-token";
const USER = "U" + "a".repeat(32);
const OTHER = "U" + "b".repeat(32);
const PNG_800x270 = menuPng(800, 270);

let platform: LinePlatform;
let api: messagingApi.MessagingApiClient;
let blob: messagingApi.MessagingApiBlobClient;
let changes: RichMenuChange[];

beforeEach(async () => {
  platform = await startLinePlatform({ channelAccessToken: TOKEN });
  api = new messagingApi.MessagingApiClient({ channelAccessToken: TOKEN, baseURL: platform.url });
  blob = new messagingApi.MessagingApiBlobClient({ channelAccessToken: TOKEN, baseURL: platform.url });
  changes = [];
  platform.on("richmenu", (change) => changes.push(change));
});

afterEach(async () => {
  await platform.close();
});

/** A menu with its image uploaded, ready to be the default, linked, or aliased. */
async function readyMenu(actions?: messagingApi.Action[]): Promise<string> {
  const { richMenuId } = await api.createRichMenu(menuRequest(actions));
  await blob.setRichMenuImage(richMenuId, pngBlob(PNG_800x270));
  return richMenuId;
}

async function raw(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<{ status: number; json: unknown }> {
  const response = await fetch(platform.url + path, {
    method,
    headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json", ...headers },
    ...(body === undefined ? {} : { body: typeof body === "string" || Buffer.isBuffer(body) ? body : JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, json: text === "" ? undefined : (JSON.parse(text) as unknown) };
}

describe("create, get, list, validate, delete", () => {
  it("creates a menu and answers it back as LINE does", async () => {
    const request = menuRequest([
      { type: "postback", data: "menu=sales", displayText: "Sales", label: "Sales" },
      { type: "message", text: "help" },
    ]);
    const { richMenuId } = await api.createRichMenu(request);
    expect(richMenuId).toMatch(/^richmenu-[0-9a-f]{32}$/);
    expect(await api.getRichMenu(richMenuId)).toEqual({ richMenuId, ...request });
    expect(await api.getRichMenuList()).toEqual({ richmenus: [{ richMenuId, ...request }] });
    expect(await api.validateRichMenuObject(request)).toEqual({});
    expect(changes.map((c) => c.kind)).toEqual(["created"]);

    const second = (await api.createRichMenu(menuRequest(undefined, { name: "second" }))).richMenuId;
    expect(second).not.toBe(richMenuId);
    expect((await api.getRichMenuList()).richmenus.map((m) => m.name)).toEqual(["test menu", "second"]);

    expect(await api.deleteRichMenu(richMenuId)).toEqual({});
    expect(await failure(api.getRichMenu(richMenuId))).toEqual({ status: 404, body: { message: "richmenu not found", details: [] } });
    expect((await failure(api.deleteRichMenu(richMenuId))).status).toBe(404);
    expect((await api.getRichMenuList()).richmenus.map((m) => m.richMenuId)).toEqual([second]);
  });

  it("keeps only the menu's own fields", async () => {
    const { richMenuId } = await api.createRichMenu({ ...menuRequest(), extra: "dropped" } as messagingApi.RichMenuRequest);
    expect(await api.getRichMenu(richMenuId)).not.toHaveProperty("extra");
  });

  it("requires the bearer token", async () => {
    const response = await fetch(`${platform.url}/v2/bot/richmenu/list`);
    expect(response.status).toBe(401);
    const wrong = await fetch(`${platform.url}/v2/bot/richmenu/list`, { headers: { authorization: "Bearer nope" } });
    expect(wrong.status).toBe(401);
  });

  it("allows at most 1000 menus", async () => {
    const body = menuRequest();
    for (let batch = 0; batch < 20; batch++) {
      await Promise.all(Array.from({ length: 50 }, () => raw("POST", "/v2/bot/richmenu", body)));
    }
    expect((await api.getRichMenuList()).richmenus).toHaveLength(1000);
    const refused = await failure(api.createRichMenu(body));
    expect(refused.status).toBe(400);
    expect(refused.body.message).toMatch(/maximum number of rich menus \(1000\)/);
    const first = (await api.getRichMenuList()).richmenus[0]!.richMenuId;
    await api.deleteRichMenu(first);
    await expect(api.createRichMenu(body)).resolves.toHaveProperty("richMenuId");
  });
});

describe("the rich menu object's rules", () => {
  type Case = [string, (menu: Record<string, unknown>) => void, string, string];
  const area = (menu: Record<string, unknown>): Record<string, unknown> => (menu["areas"] as Record<string, unknown>[])[0]!;
  const bounds = (menu: Record<string, unknown>): Record<string, unknown> => area(menu)["bounds"] as Record<string, unknown>;
  const size = (menu: Record<string, unknown>): Record<string, unknown> => menu["size"] as Record<string, unknown>;
  const setAction = (value: Record<string, unknown>) => (menu: Record<string, unknown>) => {
    area(menu)["action"] = value;
  };

  const cases: Case[] = [
    ["no size", (m) => delete m["size"], "size", "must be specified"],
    ["size not an object", (m) => (m["size"] = 800), "size", "must be an object"],
    ["width under 800", (m) => (size(m)["width"] = 799), "size.width", "must be between 800 and 2500"],
    ["width over 2500", (m) => (size(m)["width"] = 2501), "size.width", "must be between 800 and 2500"],
    ["width not an integer", (m) => (size(m)["width"] = 800.5), "size.width", "must be an integer"],
    ["no height", (m) => delete size(m)["height"], "size.height", "must be specified"],
    ["height under 250", (m) => (size(m)["height"] = 249), "size.height", "must be 250 or more"],
    ["aspect ratio under 1.45", (m) => (m["size"] = { width: 1000, height: 690 }), "size", "The aspect ratio (width / height) must be 1.45 or more"],
    ["no selected", (m) => delete m["selected"], "selected", "must be specified"],
    ["selected not a boolean", (m) => (m["selected"] = "true"), "selected", "must be a boolean"],
    ["no name", (m) => delete m["name"], "name", "must be specified"],
    ["empty name", (m) => (m["name"] = ""), "name", "May not be empty"],
    ["name over 300", (m) => (m["name"] = "n".repeat(301)), "name", "Length must be between 1 and 300"],
    ["no chatBarText", (m) => delete m["chatBarText"], "chatBarText", "must be specified"],
    ["empty chatBarText", (m) => (m["chatBarText"] = ""), "chatBarText", "May not be empty"],
    ["chatBarText over 14", (m) => (m["chatBarText"] = "c".repeat(15)), "chatBarText", "Length must be between 1 and 14"],
    ["no areas", (m) => delete m["areas"], "areas", "must be specified"],
    ["no area", (m) => (m["areas"] = []), "areas", "Size must be between 1 and 20"],
    ["21 areas", (m) => (m["areas"] = Array.from({ length: 21 }, () => structuredClone(area(m)))), "areas", "Size must be between 1 and 20"],
    ["no bounds", (m) => delete area(m)["bounds"], "areas[0].bounds", "must be specified"],
    ["negative x", (m) => (bounds(m)["x"] = -1), "areas[0].bounds.x", "must be 0 or more"],
    ["negative y", (m) => (bounds(m)["y"] = -1), "areas[0].bounds.y", "must be 0 or more"],
    ["zero width", (m) => (bounds(m)["width"] = 0), "areas[0].bounds.width", "must be 1 or more"],
    ["zero height", (m) => (bounds(m)["height"] = 0), "areas[0].bounds.height", "must be 1 or more"],
    ["x not an integer", (m) => (bounds(m)["x"] = 1.5), "areas[0].bounds.x", "must be an integer"],
    [
      "area past the right edge",
      (m) => Object.assign(bounds(m), { x: 1, width: 800 }),
      "areas[0].bounds",
      "The area must lie within the rich menu (800x270); it ends at x 801, y 270",
    ],
    [
      "area past the bottom",
      (m) => Object.assign(bounds(m), { y: 10, height: 261 }),
      "areas[0].bounds",
      "The area must lie within the rich menu (800x270); it ends at x 800, y 271",
    ],
    ["no action", (m) => delete area(m)["action"], "areas[0].action", "must be specified"],
    [
      "an unknown action type",
      setAction({ type: "camera", label: "Camera" }),
      "areas[0].action.type",
      "Must be one of the following values: [postback, message, uri, datetimepicker, richmenuswitch]",
    ],
    ["postback without data", setAction({ type: "postback" }), "areas[0].action.data", "must be specified"],
    ["postback data over 300", setAction({ type: "postback", data: "d".repeat(301) }), "areas[0].action.data", "Length must be between 1 and 300"],
    ["postback displayText over 300", setAction({ type: "postback", data: "d", displayText: "t".repeat(301) }), "areas[0].action.displayText", "Length must be between 1 and 300"],
    ["postback label over 20", setAction({ type: "postback", data: "d", label: "l".repeat(21) }), "areas[0].action.label", "Length must be between 1 and 20"],
    [
      "postback with an unknown inputOption",
      setAction({ type: "postback", data: "d", inputOption: "openCamera" }),
      "areas[0].action.inputOption",
      "Must be one of the following values: [closeRichMenu, openRichMenu, openKeyboard, openVoice]",
    ],
    [
      "fillInText without openKeyboard",
      setAction({ type: "postback", data: "d", inputOption: "closeRichMenu", fillInText: "qr " }),
      "areas[0].action.fillInText",
      "can be specified only with inputOption openKeyboard",
    ],
    [
      "fillInText over 300",
      setAction({ type: "postback", data: "d", inputOption: "openKeyboard", fillInText: "f".repeat(301) }),
      "areas[0].action.fillInText",
      "Length must be between 0 and 300",
    ],
    ["message without text", setAction({ type: "message" }), "areas[0].action.text", "must be specified"],
    ["message text over 300", setAction({ type: "message", text: "t".repeat(301) }), "areas[0].action.text", "Length must be between 1 and 300"],
    ["uri of another scheme", setAction({ type: "uri", uri: "ftp://example.com/menu" }), "areas[0].action.uri", "invalid uri"],
    ["uri over 1000", setAction({ type: "uri", uri: `https://example.com/${"u".repeat(981)}` }), "areas[0].action.uri", "Length must be between 1 and 1000"],
    ["richmenuswitch without an alias", setAction({ type: "richmenuswitch", data: "d" }), "areas[0].action.richMenuAliasId", "must be specified"],
    [
      "richmenuswitch alias over 32",
      setAction({ type: "richmenuswitch", data: "d", richMenuAliasId: "a".repeat(33) }),
      "areas[0].action.richMenuAliasId",
      "Length must be between 1 and 32",
    ],
    ["richmenuswitch without data", setAction({ type: "richmenuswitch", richMenuAliasId: "a" }), "areas[0].action.data", "must be specified"],
    [
      "richmenuswitch data over 300",
      setAction({ type: "richmenuswitch", richMenuAliasId: "a", data: "d".repeat(301) }),
      "areas[0].action.data",
      "Length must be between 1 and 300",
    ],
  ];

  it.each(cases)("%s: 400 with %s", async (_name, mutate, property, message) => {
    const menu = structuredClone(menuRequest()) as unknown as Record<string, unknown>;
    mutate(menu);
    const validated = await failure(api.validateRichMenuObject(menu));
    expect(validated).toEqual({ status: 400, body: { message: "The request body has 1 error(s)", details: [{ message, property }] } });
    // Create says the same and creates nothing.
    expect(await failure(api.createRichMenu(menu as messagingApi.RichMenuRequest))).toEqual(validated);
    expect((await api.getRichMenuList()).richmenus).toEqual([]);
    expect(platform.rejected.at(-1)).toMatchObject({ path: "/v2/bot/richmenu", status: 400, details: [{ property }] });
  });

  it("lists every error at once, and refuses a body that is not an object", async () => {
    const many = await failure(api.validateRichMenuObject({ size: { width: 10, height: 10 }, selected: 1 } as unknown as messagingApi.RichMenuRequest));
    expect(many.body.message).toBe("The request body has 6 error(s)");
    expect(many.body.details?.map((d) => d.property)).toEqual(["size.width", "size.height", "selected", "name", "chatBarText", "areas"]);
    const notObject = await raw("POST", "/v2/bot/richmenu/validate", "[1]");
    expect(notObject).toMatchObject({ status: 400, json: { details: [{ property: "", message: "The request body must be a JSON object" }] } });
    const broken = await raw("POST", "/v2/bot/richmenu", "{not json");
    expect(broken).toEqual({ status: 400, json: { message: "The request body could not be parsed as JSON" } });
  });

  it("accepts every limit exactly", async () => {
    const thai20 = "เมนูร้านค้าของฉันนะคะ".slice(0, 20);
    const actions: messagingApi.Action[] = [
      { type: "postback", data: "d".repeat(300), displayText: "t".repeat(300), label: "l".repeat(20) },
      { type: "postback", data: "d", label: thai20, inputOption: "openKeyboard", fillInText: "f".repeat(300) },
      { type: "postback", data: "d", text: "deprecated displayText" },
      { type: "postback", data: "d", inputOption: "closeRichMenu" },
      { type: "postback", data: "d", inputOption: "openRichMenu" },
      { type: "postback", data: "d", inputOption: "openVoice" },
      { type: "message", text: "t".repeat(300), label: "Text" },
      { type: "uri", uri: `https://example.com/${"u".repeat(980)}` },
      { type: "uri", uri: "http://example.com/" },
      { type: "uri", uri: "line://ti/p/@slipline" },
      { type: "uri", uri: "tel:0812345678" },
      { type: "richmenuswitch", richMenuAliasId: "a".repeat(32), data: "d".repeat(300) },
      { type: "datetimepicker", data: "d", mode: "date" },
    ];
    while (actions.length < 20) actions.push({ type: "message", text: `area ${actions.length}` });
    for (const [width, height] of [
      [2500, 1724],
      [800, 250],
      [2500, 843],
      [1200, 810],
    ] as const) {
      const menu = menuRequest(actions, { width, height, name: "n".repeat(300), chatBarText: "c".repeat(14), selected: false });
      expect(await api.validateRichMenuObject(menu), `${width}x${height}`).toEqual({});
    }
    await expect(api.createRichMenu(menuRequest(actions, { chatBarText: "เมนูร้าน" }))).resolves.toHaveProperty("richMenuId");
  });
});

describe("images", () => {
  it("takes a PNG of the menu's exact size once, and gives it back", async () => {
    const { richMenuId } = await api.createRichMenu(menuRequest());
    expect(await failure(blob.getRichMenuImage(richMenuId))).toMatchObject({ status: 404 });
    expect(await blob.setRichMenuImage(richMenuId, pngBlob(PNG_800x270))).toEqual({});
    expect(platform.richMenuImage(richMenuId)).toMatchObject({ contentType: "image/png", width: 800, height: 270 });

    const download = await blob.getRichMenuImageWithHttpInfo(richMenuId);
    expect(download.httpResponse.headers.get("content-type")).toBe("image/png");
    const chunks: Buffer[] = [];
    for await (const chunk of download.body) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).equals(PNG_800x270)).toBe(true);

    const again = await failure(blob.setRichMenuImage(richMenuId, pngBlob(menuPng(800, 270, [[255, 0, 0]]))));
    expect(again).toEqual({ status: 400, body: { message: "An image has already been uploaded to the richmenu" } });
    expect(platform.richMenuImage(richMenuId)?.bytes.equals(PNG_800x270)).toBe(true);
    expect(changes.map((c) => c.kind)).toEqual(["created", "image"]);
  });

  it("refuses an image of another size", async () => {
    const { richMenuId } = await api.createRichMenu(menuRequest(undefined, { width: 2500, height: 843 }));
    const wrong = await failure(blob.setRichMenuImage(richMenuId, pngBlob(PNG_800x270)));
    expect(wrong).toEqual({
      status: 400,
      body: {
        message: "The image size is not allowed for richmenu",
        details: [{ property: "image", message: "must be 2500x843 pixels (the rich menu's size); it is 800x270" }],
      },
    });
    const swapped = await failure(blob.setRichMenuImage(richMenuId, pngBlob(menuPng(843, 2500))));
    expect(swapped.body.message).toBe("The image size is not allowed for richmenu");
    await expect(blob.setRichMenuImage(richMenuId, pngBlob(menuPng(2500, 843)))).resolves.toEqual({});
  });

  it("tells a JPEG from a PNG by its bytes, and wants the Content-Type to agree", async () => {
    const jpeg = jpegHeader(800, 270);
    expect(readImageInfo(jpeg)).toEqual({ format: "jpeg", width: 800, height: 270 });
    expect(readImageInfo(PNG_800x270)).toEqual({ format: "png", width: 800, height: 270 });

    const { richMenuId } = await api.createRichMenu(menuRequest());
    const pngAsJpeg = await failure(blob.setRichMenuImage(richMenuId, pngBlob(PNG_800x270, "image/jpeg")));
    expect(pngAsJpeg).toEqual({
      status: 400,
      body: { message: "The image does not match its Content-Type", details: [{ property: "image", message: "is a PNG file sent as image/jpeg" }] },
    });
    const jpegAsPng = await failure(blob.setRichMenuImage(richMenuId, pngBlob(jpeg, "image/png")));
    expect(jpegAsPng.body.details).toEqual([{ property: "image", message: "is a JPEG file sent as image/png" }]);
    const neither = await failure(blob.setRichMenuImage(richMenuId, pngBlob(Buffer.from("GIF89a not really"), "image/png")));
    expect(neither).toMatchObject({ status: 400, body: { message: "The image could not be read as a PNG or JPEG" } });
    const gif = await failure(blob.setRichMenuImage(richMenuId, pngBlob(Buffer.from("GIF89a"), "image/gif")));
    expect(gif.status).toBe(415);
    expect(gif.body.message).toMatch(/image\/png or image\/jpeg/);

    await blob.setRichMenuImage(richMenuId, pngBlob(jpeg, "image/jpeg"));
    const download = await fetch(`${platform.url}/v2/bot/richmenu/${richMenuId}/content`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(download.headers.get("content-type")).toBe("image/jpeg");
    expect(Buffer.from(await download.arrayBuffer()).equals(jpeg)).toBe(true);
  });

  it("refuses an image over 1 MB, and a body far over it with 413", async () => {
    const { richMenuId } = await api.createRichMenu(menuRequest(undefined, { width: 1200, height: 810 }));
    const big = noisyPng(1200, 810);
    expect(big.length).toBeGreaterThan(1_000_000);
    const refused = await failure(blob.setRichMenuImage(richMenuId, pngBlob(big)));
    expect(refused).toEqual({
      status: 400,
      body: {
        message: "The image file is too large for a richmenu",
        details: [{ property: "image", message: `must be at most 1 MB (1000000 bytes); it is ${big.length} bytes` }],
      },
    });
    const huge = Buffer.concat([big, big, big, big]);
    expect((await raw("POST", `/v2/bot/richmenu/${richMenuId}/content`, huge, { "content-type": "image/png" })).status).toBe(413);
    await expect(blob.setRichMenuImage(richMenuId, pngBlob(menuPng(1200, 810)))).resolves.toEqual({});
  });

  it("answers 404 for a menu that does not exist", async () => {
    const missing = `richmenu-${"0".repeat(32)}`;
    expect((await failure(blob.setRichMenuImage(missing, pngBlob(PNG_800x270)))).status).toBe(404);
    expect(await failure(blob.getRichMenuImage(missing))).toEqual({ status: 404, body: { message: "richmenu not found", details: [] } });
  });
});

describe("the default menu", () => {
  it("needs a menu with its image; can be read and cancelled", async () => {
    expect(await failure(api.getDefaultRichMenuId())).toEqual({ status: 404, body: { message: "no default richmenu", details: [] } });
    const { richMenuId: bare } = await api.createRichMenu(menuRequest());
    expect(await failure(api.setDefaultRichMenu(bare))).toEqual({
      status: 400,
      body: { message: "must upload richmenu image before applying it to user", details: [] },
    });
    expect((await failure(api.setDefaultRichMenu(`richmenu-${"0".repeat(32)}`))).status).toBe(404);

    const ready = await readyMenu();
    expect(await api.setDefaultRichMenu(ready)).toEqual({});
    expect(await api.getDefaultRichMenuId()).toEqual({ richMenuId: ready });
    expect(platform.richMenuFor(USER)).toMatchObject({ source: "default", menu: { richMenuId: ready } });
    expect(await api.cancelDefaultRichMenu()).toEqual({});
    expect((await failure(api.getDefaultRichMenuId())).status).toBe(404);
    expect(platform.richMenuFor(USER)).toBeUndefined();
    // Cancelling again is fine.
    expect(await api.cancelDefaultRichMenu()).toEqual({});
  });

  it("goes when its menu is deleted", async () => {
    const ready = await readyMenu();
    await api.setDefaultRichMenu(ready);
    await api.deleteRichMenu(ready);
    expect((await failure(api.getDefaultRichMenuId())).status).toBe(404);
  });
});

describe("per-user links", () => {
  it("links, reads and unlinks one user's menu", async () => {
    const ready = await readyMenu();
    expect(await failure(api.getRichMenuIdOfUser(USER))).toEqual({ status: 404, body: { message: "the user has no richmenu", details: [] } });
    expect(await api.linkRichMenuIdToUser(USER, ready)).toEqual({});
    expect(await api.getRichMenuIdOfUser(USER)).toEqual({ richMenuId: ready });
    expect((await failure(api.getRichMenuIdOfUser(OTHER))).status).toBe(404);
    expect(await api.unlinkRichMenuIdFromUser(USER)).toEqual({});
    expect((await failure(api.getRichMenuIdOfUser(USER))).status).toBe(404);
    // Unlinking someone without a menu is not an error.
    expect(await api.unlinkRichMenuIdFromUser(USER)).toEqual({});
    expect(changes.map((c) => c.kind)).toEqual(["created", "image", "linked", "unlinked"]);
    expect(changes[2]).toMatchObject({ richMenuId: ready, userIds: [USER] });
  });

  it("wants a user id and a menu with its image", async () => {
    const ready = await readyMenu();
    for (const bad of ["someone", "C" + "a".repeat(32), "U" + "A".repeat(32)]) {
      expect(await failure(api.linkRichMenuIdToUser(bad, ready)), bad).toEqual({
        status: 400,
        body: { message: "The value for the 'userId' parameter is invalid" },
      });
    }
    expect((await failure(api.getRichMenuIdOfUser("someone"))).status).toBe(400);
    expect((await failure(api.unlinkRichMenuIdFromUser("someone"))).status).toBe(400);

    const { richMenuId: bare } = await api.createRichMenu(menuRequest());
    expect(await failure(api.linkRichMenuIdToUser(USER, bare))).toEqual({
      status: 400,
      body: { message: "must upload richmenu image before applying it to user", details: [] },
    });
    expect(platform.rejected.at(-1)).toMatchObject({ status: 400, chatId: USER, message: "must upload richmenu image before applying it to user" });
    expect((await failure(api.linkRichMenuIdToUser(USER, `richmenu-${"0".repeat(32)}`))).status).toBe(404);
    // A failed read is an ordinary answer, not a rejection for the console.
    const rejections = platform.rejected.length;
    await failure(api.getRichMenuIdOfUser(USER));
    expect(platform.rejected).toHaveLength(rejections);
  });

  it("links in bulk, 1 to 500 users at a time, all or nothing", async () => {
    const ready = await readyMenu();
    const users = Array.from({ length: 500 }, (_, i) => "U" + i.toString(16).padStart(32, "0"));
    const linked = await api.linkRichMenuIdToUsersWithHttpInfo({ richMenuId: ready, userIds: users });
    expect(linked.httpResponse.status).toBe(202);
    expect(linked.body).toEqual({});
    expect(await api.getRichMenuIdOfUser(users[499]!)).toEqual({ richMenuId: ready });
    expect(changes.at(-1)).toMatchObject({ kind: "linked", richMenuId: ready, userIds: users });

    const tooMany = await failure(api.linkRichMenuIdToUsers({ richMenuId: ready, userIds: [...users, USER] }));
    expect(tooMany).toEqual({ status: 400, body: { message: "The request body has 1 error(s)", details: [{ message: "Size must be between 1 and 500", property: "userIds" }] } });
    expect((await failure(api.linkRichMenuIdToUsers({ richMenuId: ready, userIds: [] }))).body.details).toEqual([
      { message: "Size must be between 1 and 500", property: "userIds" },
    ]);
    const badId = await failure(api.linkRichMenuIdToUsers({ richMenuId: ready, userIds: [USER, OTHER, "nobody"] }));
    expect(badId).toEqual({ status: 400, body: { message: "The property, 'userIds[2]', in the request body is invalid (line: -, column: -)" } });
    expect((await failure(api.getRichMenuIdOfUser(USER))).status).toBe(404);
    const badMenu = await failure(api.linkRichMenuIdToUsers({ richMenuId: "menu-a", userIds: [USER] }));
    expect(badMenu.body.details).toEqual([{ message: "invalid richMenuId", property: "richMenuId" }]);
    const noMenu = await failure(api.linkRichMenuIdToUsers({ richMenuId: `richmenu-${"0".repeat(32)}`, userIds: [USER] }));
    expect(noMenu).toEqual({ status: 404, body: { message: "richmenu not found", details: [] } });

    const unlinked = await api.unlinkRichMenuIdFromUsersWithHttpInfo({ userIds: users.slice(0, 2) });
    expect(unlinked.httpResponse.status).toBe(202);
    expect((await failure(api.getRichMenuIdOfUser(users[0]!))).status).toBe(404);
    expect(await api.getRichMenuIdOfUser(users[2]!)).toEqual({ richMenuId: ready });
    expect((await failure(api.unlinkRichMenuIdFromUsers({ userIds: Array.from({ length: 501 }, () => USER) }))).status).toBe(400);
  });
});

describe("aliases", () => {
  it("creates, reads, lists, updates and deletes an alias", async () => {
    const first = await readyMenu();
    const second = await readyMenu();
    expect(await api.createRichMenuAlias({ richMenuAliasId: "staff-main_1", richMenuId: first })).toEqual({});
    expect(await api.getRichMenuAlias("staff-main_1")).toEqual({ richMenuAliasId: "staff-main_1", richMenuId: first });
    await api.createRichMenuAlias({ richMenuAliasId: "b".repeat(32), richMenuId: second });
    expect(await api.getRichMenuAliasList()).toEqual({
      aliases: [
        { richMenuAliasId: "staff-main_1", richMenuId: first },
        { richMenuAliasId: "b".repeat(32), richMenuId: second },
      ],
    });

    expect(await api.updateRichMenuAlias("staff-main_1", { richMenuId: second })).toEqual({});
    expect(await api.getRichMenuAlias("staff-main_1")).toEqual({ richMenuAliasId: "staff-main_1", richMenuId: second });

    expect(await api.deleteRichMenuAlias("staff-main_1")).toEqual({});
    const gone = { status: 404, body: { message: "richmenu alias not found", details: [] } };
    expect(await failure(api.getRichMenuAlias("staff-main_1"))).toEqual(gone);
    expect(await failure(api.deleteRichMenuAlias("staff-main_1"))).toEqual(gone);
    expect(await failure(api.updateRichMenuAlias("staff-main_1", { richMenuId: first }))).toEqual(gone);
    expect((await api.getRichMenuAliasList()).aliases).toHaveLength(1);
  });

  it("refuses a taken id, a bad id, and a menu that is missing or has no image", async () => {
    const ready = await readyMenu();
    await api.createRichMenuAlias({ richMenuAliasId: "main", richMenuId: ready });
    expect(await failure(api.createRichMenuAlias({ richMenuAliasId: "main", richMenuId: ready }))).toEqual({
      status: 400,
      body: { message: "conflict richmenu alias id", details: [] },
    });
    for (const bad of ["", "a".repeat(33), "has space", "ไทย"]) {
      const refused = await failure(api.createRichMenuAlias({ richMenuAliasId: bad, richMenuId: ready }));
      expect(refused.status, bad).toBe(400);
      expect(refused.body.details?.[0]?.property, bad).toBe("richMenuAliasId");
    }
    const { richMenuId: bare } = await api.createRichMenu(menuRequest());
    const notFound = { status: 400, body: { message: "richmenu not found", details: [] } };
    expect(await failure(api.createRichMenuAlias({ richMenuAliasId: "bare", richMenuId: bare }))).toEqual(notFound);
    expect(await failure(api.createRichMenuAlias({ richMenuAliasId: "gone", richMenuId: `richmenu-${"0".repeat(32)}` }))).toEqual(notFound);
    expect(await failure(api.updateRichMenuAlias("main", { richMenuId: bare }))).toEqual(notFound);
    expect((await failure(api.createRichMenuAlias({ richMenuAliasId: "x", richMenuId: "nope" }))).body.details).toEqual([
      { message: "invalid richMenuId", property: "richMenuId" },
    ]);
    expect((await failure(api.getRichMenuAlias("a".repeat(33)))).status).toBe(400);
    expect(await api.getRichMenuAliasList()).toEqual({ aliases: [{ richMenuAliasId: "main", richMenuId: ready }] });
  });

  it("allows at most 1000 aliases", async () => {
    const ready = await readyMenu();
    for (let batch = 0; batch < 20; batch++) {
      await Promise.all(Array.from({ length: 50 }, (_, i) => raw("POST", "/v2/bot/richmenu/alias", { richMenuAliasId: `a${batch}-${i}`, richMenuId: ready })));
    }
    expect((await api.getRichMenuAliasList()).aliases).toHaveLength(1000);
    const refused = await failure(api.createRichMenuAlias({ richMenuAliasId: "one-more", richMenuId: ready }));
    expect(refused.body.message).toMatch(/maximum number of rich menu aliases \(1000\)/);
  });
});

describe("what the LINE app shows", () => {
  it("a user's own menu before the default, and nothing without either", async () => {
    expect(platform.richMenuFor(USER)).toBeUndefined();
    const general = await readyMenu();
    const staff = await readyMenu([{ type: "message", text: "history" }]);
    await api.setDefaultRichMenu(general);
    await api.linkRichMenuIdToUser(USER, staff);
    expect(platform.richMenuFor(USER)).toEqual({ source: "linked", menu: await api.getRichMenu(staff) });
    expect(platform.richMenuFor(OTHER)).toEqual({ source: "default", menu: await api.getRichMenu(general) });

    await api.unlinkRichMenuIdFromUser(USER);
    expect(platform.richMenuFor(USER)?.source).toBe("default");
    await api.linkRichMenuIdToUser(USER, staff);
    // Deleting the linked menu unlinks it: the user sees the default again.
    await api.deleteRichMenu(staff);
    expect(platform.richMenuFor(USER)).toMatchObject({ source: "default", menu: { richMenuId: general } });
    expect((await failure(api.getRichMenuIdOfUser(USER))).status).toBe(404);
    await api.deleteRichMenu(general);
    expect(platform.richMenuFor(USER)).toBeUndefined();
  });

  it("a richmenuswitch links the alias's menu, and says why when it cannot", async () => {
    const main = await readyMenu();
    const more = await readyMenu();
    await api.setDefaultRichMenu(main);
    await api.createRichMenuAlias({ richMenuAliasId: "more", richMenuId: more });
    expect(platform.switchRichMenu(USER, "missing")).toBe("RICHMENU_ALIAS_ID_NOTFOUND");
    expect(platform.switchRichMenu("nobody", "more")).toBe("FAILED");
    expect(platform.richMenuFor(USER)?.menu.richMenuId).toBe(main);

    changes.length = 0;
    expect(platform.switchRichMenu(USER, "more")).toBe("SUCCESS");
    expect(platform.richMenuFor(USER)).toMatchObject({ source: "linked", menu: { richMenuId: more } });
    expect(await api.getRichMenuIdOfUser(USER)).toEqual({ richMenuId: more });
    expect(changes).toEqual([expect.objectContaining({ kind: "linked", richMenuId: more, richMenuAliasId: "more", userIds: [USER] })]);

    // Deleting a menu leaves its aliases pointing at nothing, as LINE does: a switch then finds no menu.
    await api.deleteRichMenu(more);
    expect(await api.getRichMenuAlias("more")).toEqual({ richMenuAliasId: "more", richMenuId: more });
    expect(platform.switchRichMenu(USER, "more")).toBe("RICHMENU_NOTFOUND");
    expect(platform.richMenuFor(USER)?.menu.richMenuId).toBe(main);
    // The alias can be pointed at a menu again.
    await api.updateRichMenuAlias("more", { richMenuId: main });
    expect(platform.switchRichMenu(USER, "more")).toBe("SUCCESS");
  });
});
