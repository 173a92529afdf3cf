/**
 * Demo data for local development and the seeded local backend: users, live shops and the
 * specification's 20 sample streams (in the sample shape, which is also the import format).
 *
 * Pure data. Stream times are relative to a `now` passed in, so a freshly seeded demo always has
 * shows that are live, starting soon, upcoming and ended. Artwork lives in `public/demo/` and is
 * generated from this module by `npm run art:generate` (scripts/generate-demo-art.mjs).
 *
 * Conventions: a category link's `priority` is 0 for the primary category and counts up from there;
 * the first `cbsaCodes` entry is the stream's home metro area (its `loc_tag_hub`).
 */
import type {
  Language,
  PlatformType,
  Role,
  SchemaType,
  ShopStatus,
  StreamStatus,
  TimeZone,
} from "../constants";
import { MSAS } from "./msas";

// ---------------------------------------------------------------------------------------------
// Types
// ---------------------------------------------------------------------------------------------

/** A product in the sample stream shape; `price` is a money string such as "24.00". */
export type SampleProduct = { id: string; name: string; price: string; image: string; description: string };

/** The specification's sample stream shape (the explore list's original bundled data). */
export type SampleStream = {
  id: string;
  title: string;
  description: string;
  image_urls: string[];
  video_url: string | null;
  trailer_url: string | null;
  /** ISO 8601, UTC. */
  start_utc: string;
  /** ISO 8601, UTC. */
  stop_utc: string;
  timezone: TimeZone;
  products: SampleProduct[];
  status: StreamStatus;
  /** Neighbourhood or venue. */
  loc_tag_specific: string;
  /** The metro area's name exactly as in `MSAS`. */
  loc_tag_hub: string;
  /** The metro area's principal state code. */
  loc_tag_region: string;
  loc_tag_country: string;
};

export type DemoCategoryLink = { categoryId: string; subcategoryId?: string; priority: number };

export type DemoPlatformLink = {
  platformType: PlatformType;
  platformStreamUrl: string;
  platformActionUrl?: string;
};

/** What a sample stream links to beyond its sample shape. */
export type DemoStreamLinks = {
  shopSlug: string;
  categories: DemoCategoryLink[];
  cbsaCodes: string[];
  platforms: DemoPlatformLink[];
  replayVideoUrl?: string;
};

export type DemoUser = {
  key: string;
  clerkId: string;
  email: string;
  name: string;
  role: Role;
  avatar?: string;
  /** Chose "Show my profile on my shops": their name shows on their shops' pages. */
  showProfile?: boolean;
};

export type DemoProduct = {
  id: string;
  name: string;
  price: string;
  imageUrl?: string;
  description?: string;
};

export type DemoShop = {
  slug: string;
  /** `DemoUser.key` of the owner. */
  ownerKey: string;
  liveShopName: string;
  status: ShopStatus;
  headline: string;
  description: string;
  faqSection: { question: string; answer: string }[];
  timezone: TimeZone;
  languages: Language[];
  productsSummary: string;
  products: DemoProduct[];
  bannerImageUrl: string;
  logoUrl: string;
  coverImageUrl: string;
  themeColor: string;
  accentThemeColor: string;
  shopTrailerUrl?: string;
  taxId?: string;
  schemaType: SchemaType;
  categories: DemoCategoryLink[];
  cbsaCodes: string[];
};

// ---------------------------------------------------------------------------------------------
// Users
// ---------------------------------------------------------------------------------------------

function demoUser(key: string, name: string, role: Role, showProfile?: boolean): DemoUser {
  const local = key.replace(/^seller_/, "");
  return {
    key,
    clerkId: `demo_${key}`,
    email: `${local}@livelocal.test`,
    name,
    role,
    ...(showProfile && { showProfile }),
  };
}

/**
 * One admin, ten sellers (owning one or two shops each) and one plain viewer. Three sellers show their
 * profile on their shops; the others keep the default (off).
 */
export const DEMO_USERS: readonly DemoUser[] = [
  demoUser("admin", "Avery Chen", "admin"),
  demoUser("seller_maria", "Maria Delgado", "seller", true),
  demoUser("seller_jonah", "Jonah Weiss", "seller"),
  demoUser("seller_devon", "Devon Brooks", "seller"),
  demoUser("seller_priya", "Priya Raman", "seller", true),
  demoUser("seller_marcus", "Marcus Hill", "seller"),
  demoUser("seller_kate", "Kate Sullivan", "seller"),
  demoUser("seller_lena", "Lena Park", "seller"),
  demoUser("seller_sam", "Sam Okafor", "seller", true),
  demoUser("seller_rosa", "Rosa Martinez", "seller"),
  demoUser("seller_theo", "Theo Nguyen", "seller"),
  demoUser("viewer", "Jordan Lee", "viewer"),
];

// ---------------------------------------------------------------------------------------------
// Shops
// ---------------------------------------------------------------------------------------------

function product(id: string, name: string, price: string, description: string): DemoProduct {
  return { id, name, price, imageUrl: `/demo/products/${id}.svg`, description };
}

function shopArt(slug: string): Pick<DemoShop, "bannerImageUrl" | "logoUrl" | "coverImageUrl"> {
  return {
    bannerImageUrl: `/demo/shops/${slug}-banner.svg`,
    logoUrl: `/demo/shops/${slug}-logo.svg`,
    coverImageUrl: `/demo/shops/${slug}-cover.svg`,
  };
}

/** Eleven active shops own the 20 sample streams; one shop is in maintenance, one awaits verification. */
export const DEMO_SHOPS: readonly DemoShop[] = [
  {
    slug: "east-austin-denim-co",
    ownerKey: "seller_maria",
    liveShopName: "East Austin Denim Co.",
    status: "active",
    headline: "Hand-picked 80s and 90s denim, washed, measured and graded, dropped live every week.",
    description:
      "We're a two-person vintage shop working out of a converted garage off East Cesar Chavez. Every pair of Levi's, Wrangler and Lee we sell is washed, measured flat (waist, rise, inseam, leg opening) and graded for wear before it goes on camera, so you know exactly what you're bidding on.\n\nWe go live twice a week with a themed drop: 501s one night, western wear the next. Austin buyers can skip shipping and pick up at the shop on Saturdays.",
    faqSection: [
      {
        question: "Do you list measurements?",
        answer:
          "Yes. Every pair is measured flat and the numbers are on screen and in the listing. Vintage sizes run small, so go by the tape, not the tag.",
      },
      {
        question: "Can I pick up locally?",
        answer: "Austin buyers can choose local pickup at checkout and collect on Saturdays from 11 to 3.",
      },
      {
        question: "Do you take returns?",
        answer:
          "Vintage is final sale, but if we missed a flaw on camera, message us and we'll make it right.",
      },
    ],
    timezone: "America/Chicago",
    languages: ["en", "es"],
    productsSummary:
      "Vintage Levi's 501s and 505s, Wrangler Cowboy Cut, trucker jackets, pearl-snap western shirts, leather belts and broken-in boots. Waist sizes 24 to 40.",
    products: [
      product(
        "denim-levis-501-90s",
        "Levi's 501, 1990s light stonewash, W31 L30",
        "68.00",
        "Made in USA, button fly, light honeycombs at the back of the knee. Measured 31 x 30.",
      ),
      product(
        "denim-wrangler-13mwz",
        "Wrangler 13MWZ Cowboy Cut, rigid indigo, W34 L32",
        "42.00",
        "Barely worn, still stiff. Great first pair to break in yourself.",
      ),
      product(
        "denim-trucker-jacket",
        "Levi's Type III trucker jacket, medium wash, size M",
        "95.00",
        "Classic pleated front, all buttons original, light fraying at the cuffs.",
      ),
      product(
        "denim-ropers-womens-8",
        "Women's leather roper boots, size 8",
        "58.00",
        "Tan leather, resoled, low heel. Fits true to size.",
      ),
      product(
        "denim-tooled-belt",
        "Hand-tooled leather belt, size 34",
        "32.00",
        "Floral tooling, solid brass buckle, soft from years of wear.",
      ),
    ],
    ...shopArt("east-austin-denim-co"),
    themeColor: "#1e3a8a",
    accentThemeColor: "#b45309",
    shopTrailerUrl: "https://www.instagram.com/eastaustindenim/reels/",
    schemaType: "Store",
    categories: [
      { categoryId: "fashion_apparel", subcategoryId: "clothing", priority: 0 },
      { categoryId: "fashion_apparel", subcategoryId: "shoes", priority: 1 },
    ],
    cbsaCodes: ["12420"],
  },
  {
    slug: "crumb-and-crust-bakehouse",
    ownerKey: "seller_jonah",
    liveShopName: "Crumb & Crust Bakehouse",
    status: "active",
    headline: "Naturally leavened sourdough, buns and seasonal bakes from a Bushwick micro-bakery.",
    description:
      "Crumb & Crust is a micro-bakery in a shared commercial kitchen in Bushwick. Our loaves ferment for 48 hours and are made with stone-milled New York grain. We bake Friday night and sell Saturday morning, live, so you can see what came out of the oven before you order.\n\nPick up at the kitchen window on Saturdays, or get local delivery across north Brooklyn and western Queens.",
    faqSection: [
      {
        question: "When is pickup?",
        answer:
          "Saturdays from 9 to 1 at the kitchen window on Troutman Street. Your order is bagged with your name.",
      },
      {
        question: "Do you ship bread?",
        answer:
          "No, bread is local only so it arrives fresh. Cookie boxes and starter kits ship anywhere in the US.",
      },
    ],
    timezone: "America/New_York",
    languages: ["en"],
    productsSummary:
      "Country sourdough, seeded rye, cardamom buns, seasonal cookie boxes and a starter kit for home bakers.",
    products: [
      product(
        "bake-country-sourdough",
        "Country sourdough loaf (900 g)",
        "12.00",
        "Our everyday loaf: 48-hour ferment, blistered crust, open crumb.",
      ),
      product(
        "bake-seeded-rye",
        "Seeded rye loaf",
        "13.00",
        "Dense and tangy, packed with sunflower, flax and pumpkin seeds.",
      ),
      product(
        "bake-cardamom-buns",
        "Cardamom buns, box of 4",
        "16.00",
        "Swedish-style knots with fresh-ground cardamom and pearl sugar.",
      ),
      product(
        "bake-cookie-box",
        "Cookie box, 18 cookies in 6 kinds",
        "38.00",
        "Brown butter chocolate chip, miso oat, ginger molasses and more.",
      ),
      product(
        "bake-starter-kit",
        "Sourdough starter kit",
        "18.00",
        "A jar of our 6-year-old starter, a bench scraper and a printed feeding guide.",
      ),
    ],
    ...shopArt("crumb-and-crust-bakehouse"),
    themeColor: "#7c2d12",
    accentThemeColor: "#a16207",
    schemaType: "LocalBusiness",
    categories: [{ categoryId: "food_beverage", subcategoryId: "baked_goods", priority: 0 }],
    cbsaCodes: ["35620"],
  },
  {
    slug: "windy-city-card-breaks",
    ownerKey: "seller_devon",
    liveShopName: "Windy City Card Breaks",
    status: "active",
    headline: "Live Pokémon and sports card breaks out of Wicker Park: sealed product, opened on camera.",
    description:
      "Every box we break is sealed and bought from a distributor or a Chicago card shop, and every pack is opened with the camera on it. Pick-your-type Pokémon breaks, random-team baseball breaks and the occasional vintage night.\n\nHits ship in a penny sleeve and top loader within two business days. Chicago buyers can collect at our monthly meetup at the Wicker Park card shop.",
    faqSection: [
      {
        question: "How do break spots work?",
        answer:
          "You buy a spot (a Pokémon type or a team) before the break. Every card that matches your spot is yours.",
      },
      {
        question: "When do you ship?",
        answer: "Within two business days of the break, tracked, with cards sleeved and top-loaded.",
      },
    ],
    timezone: "America/Chicago",
    languages: ["en"],
    productsSummary:
      "Break spots for Pokémon and baseball hobby boxes, sealed Elite Trainer Boxes, vintage Topps sets and signed, graded rookie cards.",
    products: [
      product(
        "cards-sv-booster-spot",
        "Scarlet & Violet booster box break, one type",
        "9.00",
        "Pick a Pokémon type; every card of that type from the 36 packs is yours.",
      ),
      product(
        "cards-pokemon-etb",
        "Pokémon Elite Trainer Box (sealed)",
        "49.99",
        "Factory sealed, straight from the distributor case.",
      ),
      product(
        "cards-topps-chrome-spot",
        "Topps Chrome baseball hobby box, random team",
        "35.00",
        "Teams are randomized live after every spot is sold.",
      ),
      product(
        "cards-1987-topps-set",
        "1987 Topps baseball complete set",
        "60.00",
        "All 792 cards, hand-collated, wood borders in nice shape.",
      ),
      product(
        "cards-signed-rookie-psa",
        "Signed rookie card, PSA slabbed",
        "120.00",
        "Authenticated autograph in a PSA slab. Player revealed on stream.",
      ),
    ],
    ...shopArt("windy-city-card-breaks"),
    themeColor: "#0f172a",
    accentThemeColor: "#b91c1c",
    schemaType: "Person",
    categories: [
      { categoryId: "collectibles", subcategoryId: "trading_cards", priority: 0 },
      { categoryId: "collectibles", subcategoryId: "sports_memorabilia", priority: 1 },
    ],
    cbsaCodes: ["16980"],
  },
  {
    slug: "rain-city-plant-swap",
    ownerKey: "seller_priya",
    liveShopName: "Rain City Plant Swap",
    status: "active",
    headline: "Rooted cuttings, rare aroids and easy-care houseplants from a Capitol Hill plant nerd.",
    description:
      "What started as a hallway plant swap in my Capitol Hill building is now a weekly live sale. I root every cutting myself in the window-lit back room, so what you see on camera is what ships: roots and all.\n\nSeattle locals can swap: bring a healthy cutting to the monthly meetup and take one home.",
    faqSection: [
      {
        question: "Do you ship in winter?",
        answer:
          "Yes, with a heat pack from November to March. Orders ship Monday to Wednesday so they never sit in a depot over a weekend.",
      },
      {
        question: "How does the swap work?",
        answer:
          "Bring a rooted, pest-free cutting to the meetup and trade it for any cutting of similar size.",
      },
    ],
    timezone: "America/Los_Angeles",
    languages: ["en", "hi"],
    productsSummary:
      "Rooted aroid cuttings, pothos and hoyas in nursery pots, and a chunky soil mix made in small batches.",
    products: [
      product(
        "plant-monstera-albo",
        "Monstera albo rooted cutting",
        "85.00",
        "Node with an aerial root and one variegated leaf, rooted in sphagnum.",
      ),
      product(
        "plant-pothos-trio",
        "Pothos trio in 4-inch nursery pots",
        "24.00",
        "Neon, marble queen and golden: the easiest plants you'll ever own.",
      ),
      product(
        "plant-hoya-krimson",
        "Hoya carnosa 'Krimson Queen', 6-inch hanging pot",
        "32.00",
        "Pink-edged leaves, already trailing.",
      ),
      product(
        "plant-aroid-soil-mix",
        "Chunky aroid soil mix, 4 quarts",
        "14.00",
        "Bark, perlite, charcoal and coir, mixed by hand.",
      ),
    ],
    ...shopArt("rain-city-plant-swap"),
    themeColor: "#166534",
    accentThemeColor: "#0f766e",
    shopTrailerUrl: "https://www.instagram.com/raincityplantswap/reels/",
    schemaType: "LocalBusiness",
    categories: [
      { categoryId: "home_goods", subcategoryId: "home_decor", priority: 0 },
      { categoryId: "diy_crafts", subcategoryId: "craft_kits", priority: 1 },
    ],
    cbsaCodes: ["42660"],
  },
  {
    slug: "peachtree-clay-studio",
    ownerKey: "seller_marcus",
    liveShopName: "Peachtree Clay Studio",
    status: "active",
    headline: "Wheel-thrown stoneware mugs, bowls and vases, fired in small batches in Atlanta's West End.",
    description:
      "I throw every piece on the wheel in a studio behind the West End BeltLine trail, then glaze and fire in batches of about sixty. Kiln openings are the best part of the job, so I open the kiln live and you get first pick.\n\nAll pieces are food safe, microwave safe and dishwasher safe. Seconds with small glaze flaws are sold at half price.",
    faqSection: [
      {
        question: "Are the glazes food safe?",
        answer:
          "Yes. Every glaze is lead free and fired to cone 6, and every piece is safe for food, microwave and dishwasher.",
      },
      {
        question: "Can I visit the studio?",
        answer:
          "Open studio is the first Saturday of each month. Atlanta buyers can also pick up orders then.",
      },
    ],
    timezone: "America/New_York",
    languages: ["en"],
    productsSummary:
      "Speckled stoneware mugs, ramen bowls, bud vase sets, half-price seconds and an air-dry clay kit for beginners.",
    products: [
      product(
        "clay-speckled-mug",
        "Speckled stoneware mug, 12 oz",
        "34.00",
        "Oatmeal glaze over speckled clay, with a thumb rest on the handle.",
      ),
      product(
        "clay-ramen-bowl",
        "Ramen bowl, tenmoku glaze",
        "42.00",
        "Deep and wide, breaking to amber at the rim.",
      ),
      product("clay-bud-vases", "Bud vase set of 3", "45.00", "Three small vases in sage, cream and rust."),
      product(
        "clay-seconds-mug",
        "Seconds mug (small glaze flaw)",
        "18.00",
        "Fully functional, with a pinhole or drip that didn't pass inspection.",
      ),
      product(
        "clay-pinch-pot-kit",
        "Air-dry clay pinch-pot kit",
        "28.00",
        "Two pounds of clay, a wooden tool set and a step-by-step card. No kiln needed.",
      ),
    ],
    ...shopArt("peachtree-clay-studio"),
    themeColor: "#9a3412",
    accentThemeColor: "#9d174d",
    schemaType: "Store",
    categories: [
      { categoryId: "home_goods", subcategoryId: "kitchen_dining", priority: 0 },
      { categoryId: "diy_crafts", subcategoryId: "craft_kits", priority: 1 },
    ],
    cbsaCodes: ["12060"],
  },
  {
    slug: "mile-high-fly-shop",
    ownerKey: "seller_kate",
    liveShopName: "Mile High Fly Shop",
    status: "active",
    headline: "Hand-tied flies, Front Range fishing reports and gently used gear from a Denver fly shop.",
    description:
      "Mile High Fly Shop is a small shop in Denver's Baker neighborhood, ten minutes from the South Platte. We tie our own flies for the Front Range rivers, take used rods and reels on consignment, and go live on tying nights so you can watch a pattern come together and buy the dozen.\n\nEvery used rod is cast-tested before it is listed. Boulder and Denver customers can pick up at the shop.",
    faqSection: [
      {
        question: "What's fishing well right now?",
        answer: "We open every show with a river report for the South Platte, the Blue and Clear Creek.",
      },
      {
        question: "Do you buy used gear?",
        answer: "We take rods, reels and waders on consignment. Bring them to the shop Tuesday to Saturday.",
      },
    ],
    timezone: "America/Denver",
    languages: ["en"],
    productsSummary:
      "Hand-tied dry flies and nymphs, beginner tying kits, and cast-tested used rods and reels.",
    products: [
      product(
        "fly-elk-hair-caddis",
        "Elk hair caddis, dozen (sizes 14-16)",
        "21.00",
        "Our best-selling dry fly for summer evenings on the Platte.",
      ),
      product(
        "fly-foam-hoppers",
        "Foam hopper assortment, 8 flies",
        "18.00",
        "Tan, olive and pink hoppers that float all afternoon.",
      ),
      product(
        "fly-used-5wt-rod",
        "Used 9-foot 5-weight rod, 4-piece",
        "145.00",
        "Cast-tested, cork in great shape, with tube and sock.",
      ),
      product(
        "fly-tying-kit",
        "Beginner fly-tying kit",
        "65.00",
        "Vise, bobbin, scissors, hooks and materials for six classic patterns.",
      ),
    ],
    ...shopArt("mile-high-fly-shop"),
    themeColor: "#155e75",
    accentThemeColor: "#3f6212",
    taxId: "DEMO-CO-0001",
    schemaType: "Store",
    categories: [
      { categoryId: "sports_outdoor", subcategoryId: "fishing", priority: 0 },
      { categoryId: "sports_outdoor", subcategoryId: "camping_hiking", priority: 1 },
    ],
    cbsaCodes: ["19740", "14500"],
  },
  {
    slug: "silver-lake-skin-lab",
    ownerKey: "seller_lena",
    liveShopName: "Silver Lake Skin Lab",
    status: "active",
    headline: "Small-batch skincare and K-beauty finds, tested by a licensed esthetician in Silver Lake.",
    description:
      "I'm a licensed esthetician with a treatment room in Silver Lake. The shop sells the products I actually use on clients: a mineral sunscreen, a gentle serum and cleansing balm made with a local lab, plus K-beauty favourites I bring back from Koreatown.\n\nEvery live includes a skin Q&A. Ask about your routine and I'll answer on camera.",
    faqSection: [
      {
        question: "Are your products fragrance free?",
        answer:
          "The SPF, serum and balm are fragrance free. K-beauty items list their full ingredients on screen.",
      },
      {
        question: "Can you help me build a routine?",
        answer: "Yes. Ask during the live, or book a 15-minute video consult from the shop page.",
      },
    ],
    timezone: "America/Los_Angeles",
    languages: ["en", "ko"],
    productsSummary:
      "Mineral SPF, niacinamide serum, oat cleansing balm and curated K-beauty sheet masks and sunscreens.",
    products: [
      product(
        "skin-mineral-spf",
        "Mineral SPF 40 daily fluid, 50 ml",
        "28.00",
        "Zinc oxide, no white cast on most skin tones, sits well under makeup.",
      ),
      product(
        "skin-niacinamide-serum",
        "Niacinamide + green tea serum, 30 ml",
        "24.00",
        "Calms redness and evens tone. Gentle enough for daily use.",
      ),
      product(
        "skin-oat-cleansing-balm",
        "Oat cleansing balm, 100 g",
        "22.00",
        "Melts sunscreen and makeup, rinses clean without tightness.",
      ),
      product(
        "skin-sheet-mask-bundle",
        "K-beauty sheet mask bundle, 10 pack",
        "19.00",
        "Ten of our favourite hydrating masks, mixed.",
      ),
    ],
    ...shopArt("silver-lake-skin-lab"),
    themeColor: "#831843",
    accentThemeColor: "#6d28d9",
    schemaType: "LocalBusiness",
    categories: [{ categoryId: "beauty_personal_care", subcategoryId: "skin_care", priority: 0 }],
    cbsaCodes: ["31080"],
  },
  {
    slug: "rose-city-good-dog",
    ownerKey: "seller_sam",
    liveShopName: "Rose City Good Dog Barkery",
    status: "active",
    headline: "Single-ingredient and baked dog treats made in Portland, plus toys that survive the zoomies.",
    description:
      "Our barkery bakes dog treats in small batches in the Alberta Arts District, with no salt, sugar or fillers. The jerky is a single ingredient: wild salmon, dried low and slow. Our shop dog Biscuit taste-tests every batch on camera.\n\nPortland and Vancouver customers can pick up at the shop or get bike delivery within five miles.",
    faqSection: [
      {
        question: "Are the treats grain free?",
        answer:
          "The jerky and the pumpkin biscuits are grain free. Every listing shows its full ingredient list.",
      },
      {
        question: "How long do treats keep?",
        answer: "Biscuits keep three weeks in an airtight jar; jerky keeps two months. Both freeze well.",
      },
    ],
    timezone: "America/Los_Angeles",
    languages: ["en"],
    productsSummary:
      "Wild salmon jerky, peanut butter and pumpkin biscuits, birthday pupcake kits and hand-braided tug toys.",
    products: [
      product(
        "dog-salmon-jerky",
        "Wild salmon jerky, 4 oz",
        "14.00",
        "One ingredient: Pacific salmon, dried low and slow.",
      ),
      product(
        "dog-pumpkin-biscuits",
        "Peanut butter & pumpkin biscuits, 12 pack",
        "11.00",
        "Crunchy, grain free, shaped like little bones.",
      ),
      product(
        "dog-fleece-tug",
        "Hand-braided fleece tug toy",
        "16.00",
        "Braided from fleece offcuts, machine washable.",
      ),
      product(
        "dog-pupcake-kit",
        "Pupcake birthday cake kit",
        "22.00",
        "Mix, yogurt frosting powder and a bandana for the birthday dog.",
      ),
    ],
    ...shopArt("rose-city-good-dog"),
    themeColor: "#9a3412",
    accentThemeColor: "#be123c",
    schemaType: "Store",
    categories: [{ categoryId: "pets_supplies", subcategoryId: "dog_supplies", priority: 0 }],
    cbsaCodes: ["38900"],
  },
  {
    slug: "second-act-furniture",
    ownerKey: "seller_rosa",
    liveShopName: "Second Act Furniture",
    status: "active",
    headline:
      "Thrifted and restored mid-century furniture, walked through live from our East Nashville warehouse.",
    description:
      "We find mid-century pieces at estate sales across Middle Tennessee, then clean, repair and refinish them in our East Nashville warehouse. On a live walkthrough you can see every drawer, joint and scratch before you buy.\n\nLocal delivery within 30 miles of Nashville, or pick up at the warehouse. We can arrange freight for larger pieces.",
    faqSection: [
      {
        question: "Do you deliver?",
        answer: "Yes, within 30 miles of Nashville for a flat fee. Farther away, we'll quote freight.",
      },
      {
        question: "Is everything refinished?",
        answer:
          "Wood pieces are cleaned and oiled; we say on camera whether a piece is refinished or original.",
      },
    ],
    timezone: "America/Chicago",
    languages: ["en", "es"],
    productsSummary:
      "Restored mid-century credenzas, dining chairs, nightstands and lighting from estate sales.",
    products: [
      product(
        "furn-teak-credenza",
        "Teak credenza, 1960s, refinished",
        "650.00",
        "Sliding doors, adjustable shelves, 66 inches wide.",
      ),
      product(
        "furn-cane-chairs",
        "Pair of cane-back dining chairs",
        "220.00",
        "Beech frames, new cane panels, sturdy joints.",
      ),
      product("furn-brass-lamp", "Brass mushroom table lamp", "85.00", "Rewired with a new cord and switch."),
      product(
        "furn-walnut-nightstand",
        "Walnut nightstand with one drawer",
        "140.00",
        "Dovetailed drawer, tapered legs, light wear on the top.",
      ),
    ],
    ...shopArt("second-act-furniture"),
    themeColor: "#3f6212",
    accentThemeColor: "#92400e",
    schemaType: "Store",
    categories: [{ categoryId: "home_goods", subcategoryId: "furniture", priority: 0 }],
    cbsaCodes: ["34980"],
  },
  {
    slug: "logan-square-toy-exchange",
    ownerKey: "seller_devon",
    liveShopName: "Logan Square Toy Exchange",
    status: "active",
    headline: "Gently used board games, LEGO and wooden toys, checked piece by piece.",
    description:
      "The sister shop of Windy City Card Breaks. We buy used board games and toys from Chicago families, count every piece, and sell them on for a fraction of the price new. If a game is missing a piece, we say so.",
    faqSection: [
      {
        question: "Are games complete?",
        answer:
          "Every game is counted against the rule book. Anything missing is listed on screen and in the title.",
      },
    ],
    timezone: "America/Chicago",
    languages: ["en"],
    productsSummary: "Complete, counted board games, sorted LEGO by the pound and wooden train sets.",
    products: [
      product(
        "toy-catan-complete",
        "Catan, complete and counted",
        "28.00",
        "Base game, every piece present.",
      ),
      product("toy-lego-bulk", "LEGO bulk bag, 2 lb, sorted", "24.00", "Washed, no off-brand bricks."),
      product(
        "toy-wooden-train",
        "Wooden train set, 40 pieces",
        "35.00",
        "Works with the big-name tracks, with a bridge and a tunnel.",
      ),
    ],
    ...shopArt("logan-square-toy-exchange"),
    themeColor: "#1d4ed8",
    accentThemeColor: "#c2410c",
    schemaType: "Store",
    categories: [
      { categoryId: "toys_kids", subcategoryId: "games_puzzles", priority: 0 },
      { categoryId: "toys_kids", subcategoryId: "toys", priority: 1 },
    ],
    cbsaCodes: ["16980"],
  },
  {
    slug: "triangle-retro-games",
    ownerKey: "seller_theo",
    liveShopName: "Triangle Retro Games",
    status: "active",
    headline: "Tested, cleaned and guaranteed: SNES, N64 and Game Boy games from the Research Triangle.",
    description:
      "Triangle Retro Games buys collections at yard sales and estate sales around Durham and Raleigh. Every cartridge is opened, cleaned, tested on original hardware and backed by a 90-day guarantee.",
    faqSection: [
      {
        question: "Are the games original?",
        answer: "Yes, every game is authenticated by opening the cartridge. We never sell reproductions.",
      },
      {
        question: "Do save batteries work?",
        answer: "We test saves on camera and replace weak batteries before listing.",
      },
    ],
    timezone: "America/New_York",
    languages: ["en", "vi"],
    productsSummary: "Tested SNES, N64 and Game Boy cartridges, cleaned consoles and refurbished handhelds.",
    products: [
      product(
        "retro-mario-kart-64",
        "Mario Kart 64, cartridge, tested",
        "38.00",
        "Authentic, cleaned contacts, clean label.",
      ),
      product(
        "retro-snes-console",
        "SNES console with two controllers",
        "145.00",
        "Cleaned and tested, new power supply included.",
      ),
      product(
        "retro-gameboy-color",
        "Game Boy Color, teal, new shell",
        "95.00",
        "Original board and screen in a new shell, new buttons.",
      ),
    ],
    ...shopArt("triangle-retro-games"),
    themeColor: "#4c1d95",
    accentThemeColor: "#0369a1",
    schemaType: "Store",
    categories: [{ categoryId: "electronics_tech", subcategoryId: "video_games_consoles", priority: 0 }],
    cbsaCodes: ["20500", "39580"],
  },
  {
    slug: "alberta-street-coffee",
    ownerKey: "seller_sam",
    liveShopName: "Alberta Street Coffee Roasters",
    status: "maintenance",
    headline:
      "Small-batch coffee roasted on a 5 kg drum roaster. Temporarily closed while we install a new roaster.",
    description:
      "We roast two or three single origins a week next door to Rose City Good Dog. The shop is closed while we install a bigger roaster; live cuppings return next month.",
    faqSection: [
      {
        question: "When are you back?",
        answer: "We expect to reopen next month. Follow the shop to hear as soon as the first roast is live.",
      },
    ],
    timezone: "America/Los_Angeles",
    languages: ["en"],
    productsSummary: "Whole-bean single origins and a house blend, roasted to order.",
    products: [
      product(
        "coffee-house-blend",
        "House blend, 12 oz whole bean",
        "16.00",
        "Chocolate, toasted nuts, a little cherry.",
      ),
      product(
        "coffee-ethiopia-guji",
        "Ethiopia Guji natural, 12 oz",
        "19.00",
        "Blueberry and jasmine; great as pour-over.",
      ),
    ],
    ...shopArt("alberta-street-coffee"),
    themeColor: "#44403c",
    accentThemeColor: "#b45309",
    schemaType: "LocalBusiness",
    categories: [{ categoryId: "food_beverage", subcategoryId: "coffee_tea_drinks", priority: 0 }],
    cbsaCodes: ["38900"],
  },
  {
    slug: "cascade-herbal-apothecary",
    ownerKey: "seller_priya",
    liveShopName: "Cascade Herbal Apothecary",
    status: "pending_verification",
    headline: "Bath soaks, massage oils and herbal balms blended by hand in Seattle.",
    description:
      "A new sister shop to Rain City Plant Swap: bath soaks, massage oils and balms made with herbs from my community garden plot. Waiting for verification before the first live.",
    faqSection: [],
    timezone: "America/Los_Angeles",
    languages: ["en", "hi"],
    productsSummary: "Lavender bath soaks, arnica massage oil and calendula balm.",
    products: [
      product(
        "herbal-lavender-soak",
        "Lavender & oat bath soak, 16 oz",
        "18.00",
        "Epsom salt, colloidal oat, lavender.",
      ),
      product(
        "herbal-arnica-oil",
        "Arnica massage oil, 4 oz",
        "22.00",
        "Sunflower oil infused with arnica and rosemary.",
      ),
    ],
    ...shopArt("cascade-herbal-apothecary"),
    themeColor: "#115e59",
    accentThemeColor: "#4338ca",
    schemaType: "Organization",
    categories: [{ categoryId: "health_wellness", subcategoryId: "massage_relaxation", priority: 0 }],
    cbsaCodes: ["42660"],
  },
];

// ---------------------------------------------------------------------------------------------
// Sample streams
// ---------------------------------------------------------------------------------------------

const MINUTE = 60 * 1000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

const whatnot = (handle: string): DemoPlatformLink => ({
  platformType: "whatnot",
  platformStreamUrl: `https://www.whatnot.com/user/${handle}`,
});
const instagram = (handle: string): DemoPlatformLink => ({
  platformType: "instagram",
  platformStreamUrl: `https://www.instagram.com/${handle}/live/`,
});
const tiktok = (handle: string): DemoPlatformLink => ({
  platformType: "tiktok",
  platformStreamUrl: `https://www.tiktok.com/@${handle}/live`,
});
const facebook = (handle: string): DemoPlatformLink => ({
  platformType: "facebook",
  platformStreamUrl: `https://www.facebook.com/${handle}/live_videos`,
});

type StreamPlan = DemoStreamLinks & {
  id: string;
  title: string;
  description: string;
  status: StreamStatus;
  /** Start relative to `now`, in milliseconds; negative when it started in the past. */
  startIn: number;
  duration: number;
  /** Neighbourhood or venue (`loc_tag_specific`). */
  place: string;
  productIds: string[];
  trailerUrl?: string;
};

const STREAM_PLANS: readonly StreamPlan[] = [
  // --- LIVE now -------------------------------------------------------------------------------
  {
    id: "vintage-501-denim-drop",
    shopSlug: "east-austin-denim-co",
    title: "Vintage Levi's drop: 80s and 90s 501s, every pair measured",
    description:
      "Forty pairs of washed and graded 501s and 505s, waist 26 to 38. Measurements on screen for every pair, and flaws shown up close. Austin buyers: choose local pickup and grab yours Saturday.",
    status: "LIVE",
    startIn: -25 * MINUTE,
    duration: 2 * HOUR,
    place: "East Cesar Chavez, Austin",
    productIds: ["denim-levis-501-90s", "denim-wrangler-13mwz", "denim-trucker-jacket"],
    categories: [{ categoryId: "fashion_apparel", subcategoryId: "clothing", priority: 0 }],
    cbsaCodes: ["12420"],
    platforms: [
      whatnot("eastaustindenim"),
      { ...instagram("eastaustindenim"), platformActionUrl: "https://www.instagram.com/eastaustindenim/" },
    ],
    trailerUrl: "https://www.instagram.com/eastaustindenim/reels/",
  },
  {
    id: "pokemon-booster-box-breaks",
    shopSlug: "windy-city-card-breaks",
    title: "Pokémon Scarlet & Violet booster box breaks: pick your type",
    description:
      "Three sealed booster boxes, 108 packs, opened live. Buy a type spot and every card of that type is yours. Hits sleeved and shipped within two business days; Chicago pickup at the monthly meetup.",
    status: "LIVE",
    startIn: -10 * MINUTE,
    duration: 130 * MINUTE,
    place: "Wicker Park, Chicago",
    productIds: ["cards-sv-booster-spot", "cards-pokemon-etb"],
    categories: [{ categoryId: "collectibles", subcategoryId: "trading_cards", priority: 0 }],
    cbsaCodes: ["16980"],
    platforms: [whatnot("windycitybreaks"), tiktok("windycitybreaks")],
  },
  {
    id: "sourdough-bake-sale",
    shopSlug: "crumb-and-crust-bakehouse",
    title: "Sourdough bake sale: fresh loaves and cardamom buns for pickup",
    description:
      "Straight out of last night's bake: country loaves, seeded rye and cardamom buns. Order during the live for pickup at the kitchen window until 1, or local delivery in north Brooklyn.",
    status: "LIVE",
    startIn: -40 * MINUTE,
    duration: 2 * HOUR,
    place: "Bushwick, Brooklyn",
    productIds: ["bake-country-sourdough", "bake-seeded-rye", "bake-cardamom-buns"],
    categories: [{ categoryId: "food_beverage", subcategoryId: "baked_goods", priority: 0 }],
    cbsaCodes: ["35620"],
    platforms: [
      instagram("crumbandcrustbk"),
      {
        platformType: "shopify",
        platformStreamUrl: "https://crumb-and-crust.myshopify.com/pages/live",
        platformActionUrl: "https://crumb-and-crust.myshopify.com/collections/this-week",
      },
    ],
  },
  {
    id: "spf-serum-restock",
    shopSlug: "silver-lake-skin-lab",
    title: "Glow check: mineral SPF and serum restock, with skin Q&A",
    description:
      "Our mineral SPF 40 and niacinamide serum are back in stock. I'll swatch the SPF on three skin tones, answer your routine questions and run a bundle deal for the first 30 orders.",
    status: "LIVE",
    startIn: -5 * MINUTE,
    duration: 75 * MINUTE,
    place: "Silver Lake, Los Angeles",
    productIds: ["skin-mineral-spf", "skin-niacinamide-serum", "skin-oat-cleansing-balm"],
    categories: [{ categoryId: "beauty_personal_care", subcategoryId: "skin_care", priority: 0 }],
    cbsaCodes: ["31080"],
    platforms: [tiktok("silverlakeskinlab")],
  },
  // --- PAUSED ---------------------------------------------------------------------------------
  {
    id: "fly-tying-night",
    shopSlug: "mile-high-fly-shop",
    title: "Fly-tying night: elk hair caddis and foam hoppers",
    description:
      "Tying the two flies that will carry you through summer on the South Platte, step by step. River report first, then tie-along. Finished dozens and beginner kits available during the show. (Short break while we restock materials.)",
    status: "PAUSED",
    startIn: -30 * MINUTE,
    duration: 2 * HOUR,
    place: "Baker, Denver",
    productIds: ["fly-elk-hair-caddis", "fly-foam-hoppers", "fly-tying-kit"],
    categories: [{ categoryId: "sports_outdoor", subcategoryId: "fishing", priority: 0 }],
    cbsaCodes: ["19740", "14500"],
    platforms: [facebook("milehighflyshop")],
  },
  // --- SCHEDULED within hours -----------------------------------------------------------------
  {
    id: "rare-aroid-cuttings",
    shopSlug: "rain-city-plant-swap",
    title: "Rare aroid cuttings and plant swap: monsteras, philodendrons, hoyas",
    description:
      "Rooted cuttings from the back room, shown roots-first. Monstera albo, pink princess philodendron and a table of easy pothos. Seattle locals can reserve a swap slot for the meetup.",
    status: "SCHEDULED",
    startIn: 1 * HOUR,
    duration: 90 * MINUTE,
    place: "Capitol Hill, Seattle",
    productIds: ["plant-monstera-albo", "plant-pothos-trio", "plant-hoya-krimson", "plant-aroid-soil-mix"],
    categories: [{ categoryId: "home_goods", subcategoryId: "home_decor", priority: 0 }],
    cbsaCodes: ["42660"],
    platforms: [instagram("raincityplantswap")],
    trailerUrl: "https://www.instagram.com/raincityplantswap/reels/",
  },
  {
    id: "kiln-opening",
    shopSlug: "peachtree-clay-studio",
    title: "Kiln opening: fresh mugs, ramen bowls and bud vases",
    description:
      "Sixty pieces, still warm. I'll unload the kiln on camera, check every glaze and you get first pick before anything goes on the website.",
    status: "SCHEDULED",
    startIn: 2 * HOUR,
    duration: 1 * HOUR,
    place: "West End, Atlanta",
    productIds: ["clay-speckled-mug", "clay-ramen-bowl", "clay-bud-vases"],
    categories: [{ categoryId: "home_goods", subcategoryId: "kitchen_dining", priority: 0 }],
    cbsaCodes: ["12060"],
    platforms: [
      instagram("peachtreeclay"),
      {
        platformType: "etsy",
        platformStreamUrl: "https://www.etsy.com/shop/PeachtreeClayStudio",
        platformActionUrl: "https://www.etsy.com/shop/PeachtreeClayStudio",
      },
    ],
  },
  {
    id: "barkery-treats-live",
    shopSlug: "rose-city-good-dog",
    title: "Barkery live: salmon jerky and pumpkin biscuits, fresh from the oven",
    description:
      "Biscuit the shop dog taste-tests the new batch. Salmon jerky, pumpkin biscuits and pupcake kits, with bike delivery in Portland on the same day.",
    status: "SCHEDULED",
    startIn: 3 * HOUR,
    duration: 1 * HOUR,
    place: "Alberta Arts District, Portland",
    productIds: ["dog-salmon-jerky", "dog-pumpkin-biscuits", "dog-pupcake-kit", "dog-fleece-tug"],
    categories: [{ categoryId: "pets_supplies", subcategoryId: "dog_supplies", priority: 0 }],
    cbsaCodes: ["38900"],
    platforms: [
      tiktok("rosecitygooddog"),
      {
        platformType: "shopify",
        platformStreamUrl: "https://rose-city-good-dog.myshopify.com/pages/live",
        platformActionUrl: "https://rose-city-good-dog.myshopify.com/collections/treats",
      },
    ],
  },
  {
    id: "vintage-baseball-card-night",
    shopSlug: "windy-city-card-breaks",
    title: "Vintage baseball card night: '50s to '80s singles and sets",
    description:
      "A collection bought from a retired Cubs fan in Evanston: 1950s Topps singles, a complete 1987 set and a few surprises. Auctions start at a dollar.",
    status: "SCHEDULED",
    startIn: 4 * HOUR,
    duration: 2 * HOUR,
    place: "Wicker Park, Chicago",
    productIds: ["cards-1987-topps-set", "cards-topps-chrome-spot"],
    categories: [
      { categoryId: "collectibles", subcategoryId: "sports_memorabilia", priority: 0 },
      { categoryId: "collectibles", subcategoryId: "trading_cards", priority: 1 },
    ],
    cbsaCodes: ["16980"],
    platforms: [whatnot("windycitybreaks")],
  },
  {
    id: "mid-century-walkthrough",
    shopSlug: "second-act-furniture",
    title: "Mid-century warehouse walkthrough: teak, cane and brass",
    description:
      "This week's estate-sale finds, refinished and ready: a teak credenza, cane-back chairs, a walnut nightstand and a brass lamp. Every drawer opened on camera. Local delivery within 30 miles.",
    status: "SCHEDULED",
    startIn: 5 * HOUR,
    duration: 90 * MINUTE,
    place: "East Nashville",
    productIds: ["furn-teak-credenza", "furn-cane-chairs", "furn-walnut-nightstand", "furn-brass-lamp"],
    categories: [{ categoryId: "home_goods", subcategoryId: "furniture", priority: 0 }],
    cbsaCodes: ["34980"],
    platforms: [facebook("secondactfurniture")],
  },
  {
    id: "snes-n64-cart-haul",
    shopSlug: "triangle-retro-games",
    title: "Yard-sale haul: SNES and N64 carts, tested on camera",
    description:
      "Two boxes of cartridges from a Raleigh yard sale. We open, clean and test each one live on original hardware, then it goes up for auction. Every game is covered by our 90-day guarantee.",
    status: "SCHEDULED",
    startIn: 6 * HOUR,
    duration: 2 * HOUR,
    place: "Downtown Durham",
    productIds: ["retro-mario-kart-64", "retro-snes-console", "retro-gameboy-color"],
    categories: [{ categoryId: "electronics_tech", subcategoryId: "video_games_consoles", priority: 0 }],
    cbsaCodes: ["20500", "39580"],
    platforms: [whatnot("triangleretro")],
  },
  {
    id: "western-wear-night",
    shopSlug: "east-austin-denim-co",
    title: "Western wear night: ropers, tooled belts and pearl-snap shirts",
    description:
      "Boots, belts and shirts from a ranch estate in the Hill Country. Sizes shown on screen, boots measured inside the sole.",
    status: "SCHEDULED",
    startIn: 7 * HOUR + 30 * MINUTE,
    duration: 90 * MINUTE,
    place: "East Cesar Chavez, Austin",
    productIds: ["denim-ropers-womens-8", "denim-tooled-belt"],
    categories: [
      { categoryId: "fashion_apparel", subcategoryId: "shoes", priority: 0 },
      { categoryId: "fashion_apparel", subcategoryId: "handbags_accessories", priority: 1 },
    ],
    cbsaCodes: ["12420"],
    platforms: [whatnot("eastaustindenim")],
  },
  // --- SCHEDULED in the coming days -----------------------------------------------------------
  {
    id: "board-game-night-sale",
    shopSlug: "logan-square-toy-exchange",
    title: "Board game night sale: complete and counted classics",
    description:
      "Catan, Ticket to Ride, Pandemic and a stack of family games, every one counted against the rule book. Plus sorted LEGO by the pound.",
    status: "SCHEDULED",
    startIn: 1 * DAY + 2 * HOUR,
    duration: 90 * MINUTE,
    place: "Logan Square, Chicago",
    productIds: ["toy-catan-complete", "toy-lego-bulk", "toy-wooden-train"],
    categories: [
      { categoryId: "toys_kids", subcategoryId: "games_puzzles", priority: 0 },
      { categoryId: "toys_kids", subcategoryId: "toys", priority: 1 },
    ],
    cbsaCodes: ["16980"],
    platforms: [{ platformType: "popshop", platformStreamUrl: "https://popshoplive.com/logansquaretoys" }],
  },
  {
    id: "denim-shop-tour-qa",
    shopSlug: "east-austin-denim-co",
    title: "Shop tour and Q&A: how we source, wash and grade vintage denim",
    description:
      "No sale this time: a walk around the garage, the washing station and the grading table, and your questions about fit, fading and spotting a fake vintage tag.",
    status: "SCHEDULED",
    startIn: 2 * DAY + 3 * HOUR,
    duration: 45 * MINUTE,
    place: "East Cesar Chavez, Austin",
    productIds: [],
    // No category on purpose: it only matches when the explore filter selects no category.
    categories: [],
    cbsaCodes: ["12420"],
    platforms: [instagram("eastaustindenim")],
  },
  // --- ENDED, with replays --------------------------------------------------------------------
  {
    id: "cookie-box-preorder",
    shopSlug: "crumb-and-crust-bakehouse",
    title: "Cookie box preorder night: 18 cookies, 6 kinds",
    description:
      "We baked one of each cookie in this season's box and talked through every one. Preorders ship anywhere in the US; Brooklyn pickup on Saturday.",
    status: "ENDED",
    startIn: -2 * DAY - 3 * HOUR,
    duration: 90 * MINUTE,
    place: "Bushwick, Brooklyn",
    productIds: ["bake-cookie-box", "bake-starter-kit"],
    categories: [{ categoryId: "food_beverage", subcategoryId: "baked_goods", priority: 0 }],
    cbsaCodes: ["35620"],
    platforms: [instagram("crumbandcrustbk")],
    replayVideoUrl: "https://www.instagram.com/crumbandcrustbk/reels/",
  },
  {
    id: "signed-rookie-showcase",
    shopSlug: "windy-city-card-breaks",
    title: "Signed rookie card showcase: PSA slabs and Chicago legends",
    description:
      "Graded, signed rookie cards from a private Chicago collection, with a Bulls and Cubs section. Every autograph authenticated by PSA.",
    status: "ENDED",
    startIn: -1 * DAY - 2 * HOUR,
    duration: 2 * HOUR,
    place: "Wicker Park, Chicago",
    productIds: ["cards-signed-rookie-psa"],
    categories: [{ categoryId: "collectibles", subcategoryId: "sports_memorabilia", priority: 0 }],
    cbsaCodes: ["16980"],
    platforms: [whatnot("windycitybreaks")],
    replayVideoUrl: "https://www.whatnot.com/user/windycitybreaks/shows",
  },
  {
    id: "studio-seconds-sale",
    shopSlug: "peachtree-clay-studio",
    title: "Studio seconds sale: small glaze flaws, full function, half price",
    description:
      "Every piece that didn't pass inspection this season, shown flaw-first. Mugs, bowls and vases at half price, plus pinch-pot kits for the kids.",
    status: "ENDED",
    startIn: -3 * DAY - 4 * HOUR,
    duration: 1 * HOUR,
    place: "West End, Atlanta",
    productIds: ["clay-seconds-mug", "clay-pinch-pot-kit"],
    categories: [
      { categoryId: "home_goods", subcategoryId: "kitchen_dining", priority: 0 },
      { categoryId: "diy_crafts", subcategoryId: "craft_kits", priority: 1 },
    ],
    cbsaCodes: ["12060"],
    platforms: [instagram("peachtreeclay")],
    replayVideoUrl: "https://www.instagram.com/peachtreeclay/reels/",
  },
  {
    id: "kbeauty-sheet-mask-haul",
    shopSlug: "silver-lake-skin-lab",
    title: "K-beauty haul: the sheet masks and sunscreens we actually reorder",
    description:
      "Fresh from a Koreatown run: the sheet masks and sunscreens I reorder for the treatment room, tried on camera with honest notes on texture and finish.",
    status: "ENDED",
    startIn: -4 * DAY - 5 * HOUR,
    duration: 1 * HOUR,
    place: "Silver Lake, Los Angeles",
    productIds: ["skin-sheet-mask-bundle", "skin-mineral-spf"],
    categories: [{ categoryId: "beauty_personal_care", subcategoryId: "skin_care", priority: 0 }],
    cbsaCodes: ["31080"],
    platforms: [tiktok("silverlakeskinlab")],
    replayVideoUrl: "https://www.tiktok.com/@silverlakeskinlab",
  },
  // --- CANCELLED ------------------------------------------------------------------------------
  {
    id: "succulent-wall-workshop",
    shopSlug: "rain-city-plant-swap",
    title: "Living succulent wall workshop, kit included",
    description:
      "Build a 12-inch living wall with me, step by step. Cancelled: the succulent shipment was delayed. Kit buyers have been refunded and the workshop will be rescheduled.",
    status: "CANCELLED",
    startIn: 2 * DAY + 1 * HOUR,
    duration: 1 * HOUR,
    place: "Capitol Hill, Seattle",
    productIds: ["plant-aroid-soil-mix"],
    categories: [
      { categoryId: "diy_crafts", subcategoryId: "craft_kits", priority: 0 },
      { categoryId: "home_goods", subcategoryId: "home_decor", priority: 1 },
    ],
    cbsaCodes: ["42660"],
    platforms: [instagram("raincityplantswap")],
  },
  // --- CREATED (a draft, private to its owner) ------------------------------------------------
  {
    id: "spring-hatch-fly-box",
    shopSlug: "mile-high-fly-shop",
    title: "Spring hatch fly box build: BWOs, midges and stoneflies",
    description:
      "Draft. Building a complete spring box for the Front Range: blue-winged olives, midges and stonefly nymphs, with a river report and a used-rod corner.",
    status: "CREATED",
    startIn: 5 * DAY + 2 * HOUR,
    duration: 2 * HOUR,
    place: "Baker, Denver",
    productIds: ["fly-used-5wt-rod", "fly-tying-kit"],
    categories: [{ categoryId: "sports_outdoor", subcategoryId: "fishing", priority: 0 }],
    cbsaCodes: ["19740"],
    platforms: [facebook("milehighflyshop")],
  },
];

/** Links of each sample stream (shop, categories, metro areas, platforms, replay), by stream id. */
export const DEMO_STREAM_LINKS: Record<string, DemoStreamLinks> = Object.fromEntries(
  STREAM_PLANS.map((plan) => {
    const links: DemoStreamLinks = {
      shopSlug: plan.shopSlug,
      categories: plan.categories,
      cbsaCodes: plan.cbsaCodes,
      platforms: plan.platforms,
    };
    if (plan.replayVideoUrl) links.replayVideoUrl = plan.replayVideoUrl;
    return [plan.id, links];
  }),
);

/**
 * The demo viewer's watch list, so `/watch-list` has something to show on a first run: a live show, two
 * coming up, one ended with its replay, and three followed shops. None of these shows or shops is one an
 * end-to-end test takes live, so the viewer's open tabs in those tests get no go-live notices.
 */
export const DEMO_WATCH_LIST = {
  userKey: "viewer",
  savedStreamIds: [
    "sourdough-bake-sale",
    "barkery-treats-live",
    "mid-century-walkthrough",
    "cookie-box-preorder",
  ],
  followedShopSlugs: ["crumb-and-crust-bakehouse", "rose-city-good-dog", "silver-lake-skin-lab"],
} as const;

function requireShop(slug: string): DemoShop {
  const shop = DEMO_SHOPS.find((candidate) => candidate.slug === slug);
  if (!shop) throw new Error(`demo data: unknown shop ${slug}`);
  return shop;
}

function toSampleProduct(shop: DemoShop, productId: string): SampleProduct {
  const found = shop.products.find((candidate) => candidate.id === productId);
  if (!found) throw new Error(`demo data: shop ${shop.slug} has no product ${productId}`);
  return {
    id: found.id,
    name: found.name,
    price: found.price,
    image: found.imageUrl ?? "",
    description: found.description ?? "",
  };
}

/**
 * Running shows start on the minute; every other show on a quarter hour, as sellers schedule them.
 * Both keep the plan's offsets: a LIVE show has started and not yet stopped at `now`.
 */
function startTime(now: number, plan: StreamPlan): number {
  if (plan.status === "LIVE" || plan.status === "PAUSED") {
    return Math.floor((now + plan.startIn) / MINUTE) * MINUTE;
  }
  const quarter = 15 * MINUTE;
  return Math.ceil((now + plan.startIn) / quarter) * quarter;
}

/** The 20 sample streams with times relative to `now` (milliseconds since the epoch). */
export function buildSampleStreams(now: number): SampleStream[] {
  return STREAM_PLANS.map((plan) => {
    const shop = requireShop(plan.shopSlug);
    const hubCode = plan.cbsaCodes[0];
    const hub = MSAS.find((msa) => msa.cbsaCode === hubCode);
    if (!hub) throw new Error(`demo data: unknown metro area ${hubCode ?? "(none)"} on ${plan.id}`);
    const start = startTime(now, plan);
    const primary = plan.platforms[0];
    return {
      id: plan.id,
      title: plan.title,
      description: plan.description,
      image_urls: [`/demo/streams/${plan.id}.svg`],
      video_url: plan.status === "CREATED" || !primary ? null : primary.platformStreamUrl,
      trailer_url: plan.trailerUrl ?? null,
      start_utc: new Date(start).toISOString(),
      stop_utc: new Date(start + plan.duration).toISOString(),
      timezone: shop.timezone,
      products: plan.productIds.map((productId) => toSampleProduct(shop, productId)),
      status: plan.status,
      loc_tag_specific: plan.place,
      loc_tag_hub: hub.name,
      loc_tag_region: hub.states[0] ?? "",
      loc_tag_country: "US",
    };
  });
}
