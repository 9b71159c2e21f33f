// The demo shop's name: the one fact of the demo the bot itself uses (the menus' name when no slip service
// is set), and the name the sandbox's demo shop goes by.
export const DEMO_SHOP_NAME = "ร้านกาแฟดีใจ";
