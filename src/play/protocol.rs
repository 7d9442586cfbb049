//! The online game's wire format (documented with an example per command in
//! `docs/play.md`): a request is `{"command", "parameters", "id"}`, every
//! server message `{"command", "id", "output"}`, and each command's
//! parameters are read into a typed struct here, so that a handler never
//! sees a malformed request.

use serde::de::DeserializeOwned;
use serde::Deserialize;
use serde_json::{json, Value};

/// The largest message a client may send, in bytes.
pub const MAX_MESSAGE: usize = 64 << 10;

/// The answers 003 names (and the few it leaves out, documented).
pub mod description {
    /// The command did what it asked.
    pub const SUCCESS: &str = "success";
    /// Malformed or out-of-range parameters; a refused registration; a wrong
    /// login.
    pub const INVALID_INPUT: &str = "invalid input";
    /// Something failed on the server.
    pub const SERVER_ERROR: &str = "server error";
    /// A command that needs a login, without one.
    pub const NOT_LOGGED_IN: &str = "not logged in";
    /// A second login of one user.
    pub const ALREADY_LOGGED_IN: &str = "already logged in";
    /// Logins of a name throttled after failures.
    pub const TOO_MANY_ATTEMPTS: &str = "too many attempts";
    /// More messages than the connection's rate allows.
    pub const TOO_MANY_MESSAGES: &str = "too many messages";
    /// A command no one knows.
    pub const UNKNOWN_COMMAND: &str = "unknown command";
    /// No game has that id.
    pub const NO_SUCH_GAME: &str = "no such game";
    /// The user has no seat in that game.
    pub const NOT_IN_GAME: &str = "not in this game";
    /// The user is in that game already.
    pub const ALREADY_IN_GAME: &str = "already in this game";
    /// The game has five players.
    pub const GAME_FULL: &str = "game is full";
    /// The game has started (or ended).
    pub const ALREADY_STARTED: &str = "game already started";
    /// Another player has that colour.
    pub const COLOR_TAKEN: &str = "color taken";
    /// The board key is not offered.
    pub const UNKNOWN_BOARD: &str = "unknown board";
    /// `startGame` with one player.
    pub const INSUFFICIENT_PLAYERS: &str = "insufficient number of players";
    /// `startGame` by another than the creator.
    pub const CREATOR_STARTS: &str = "only the creator can start the game";
    /// `addAI` by another than the creator.
    pub const CREATOR_ADDS: &str = "only the creator can add players";
    /// The start's answer.
    pub const GAME_STARTED: &str = "game has started";
    /// Another player is to move.
    pub const NOT_YOUR_TURN: &str = "not your turn";
    /// The game has ended.
    pub const GAME_OVER: &str = "game is over";
    /// The tickets offered must be chosen first.
    pub const SELECT_FIRST: &str = "select destinations first";
    /// A draw's second card is due.
    pub const DRAW_SECOND: &str = "draw your second card";
    /// A face-up wild as the second card.
    pub const WILD_ON_DRAW_AGAIN: &str = "wild card not allowed on draw again";
    /// No train card left.
    pub const NO_MORE_CARDS: &str = "no more cards to draw";
    /// `cardLocation` outside 0–5, or no face-up card there.
    pub const INVALID_CARD_LOCATION: &str = "invalid card location";
    /// No ticket left.
    pub const NO_MORE_DESTINATIONS: &str = "no more destination cards";
    /// Fewer tickets kept than the rule asks.
    pub const SELECT_MORE: &str = "have to select more";
    /// An index outside the offer, or twice.
    pub const NOT_A_VALID_INDEX: &str = "not a valid index";
    /// `selectDestinations` with no offer pending.
    pub const NO_DESTINATIONS: &str = "no destinations to select";
    /// No such track, claimed, or closed by the double-route rules.
    pub const INVALID_ROUTE: &str = "invalid route location";
    /// Too few cars for the route.
    pub const INSUFFICIENT_TRAINS: &str = "insufficient trains";
    /// Cards of a colour the track does not take.
    pub const INVALID_TRAIN_COLOR: &str = "invalid train color";
    /// Too few cards of the colour, or wilds.
    pub const INSUFFICIENT_CARDS: &str = "insufficient cards";
    /// `passTurn` while a move is possible.
    pub const PASS_NOT_ALLOWED: &str = "pass not allowed";
    /// `getCoach` in a game whose creator left the coach off.
    pub const COACH_OFF: &str = "coach is off in this game";
    /// `getCoach` before the game started.
    pub const NOT_STARTED: &str = "game has not started";
    /// `getReview` or `getReplay` before the game is over.
    pub const NOT_OVER: &str = "game is not over";
    /// `getCoach` or `getReview` while the coach has too much queued.
    pub const COACH_BUSY: &str = "coach is busy, try again";
    /// `getPlayer` named no user and no bot.
    pub const NO_SUCH_PLAYER: &str = "no such player";
    /// Another move while a tunnel's extra cards are asked for, or a
    /// tunnel's payment that is not one of the options.
    pub const TUNNEL: &str = "pay the tunnel's extra cards or give it up";
    /// A station the board or the player does not have, or on a city
    /// that has one.
    pub const INVALID_STATION: &str = "invalid station";
    /// An upload over the account's quota or rate.
    pub const TOO_MANY_UPLOADS: &str = "too many uploads";
}

/// A request: a command and its parameters, with an optional id the answer
/// echoes.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Request {
    /// The command's name.
    pub command: String,
    /// Its parameters (an object; `{}` when left out).
    #[serde(default)]
    pub parameters: Value,
    /// Echoed in the direct answer: a number or a string.
    #[serde(default)]
    pub id: Option<Value>,
}

impl Request {
    /// A request from a text frame, or `None` when it is not one.
    pub fn parse(text: &str) -> Option<Request> {
        let r: Request = serde_json::from_str(text).ok()?;
        let id_ok = match &r.id {
            None => true,
            Some(Value::Number(_)) => true,
            Some(Value::String(s)) => s.len() <= 64,
            Some(_) => false,
        };
        (id_ok && (r.parameters.is_object() || r.parameters.is_null())).then_some(r)
    }

    /// The command and id of a message that is not a valid request, as far
    /// as they can be read, so that its refusal still reaches the client
    /// waiting for that answer.
    pub fn salvage(text: &str) -> (Option<String>, Option<Value>) {
        let Ok(Value::Object(m)) = serde_json::from_str::<Value>(text) else {
            return (None, None);
        };
        let command = m
            .get("command")
            .and_then(Value::as_str)
            .filter(|c| c.len() <= 64)
            .map(str::to_string);
        let id = m.get("id").filter(|id| match id {
            Value::Number(_) => true,
            Value::String(s) => s.len() <= 64,
            _ => false,
        });
        (command, id.cloned())
    }

    /// The parameters read as `T`, or `None` when they do not fit.
    pub fn params<T: DeserializeOwned>(&self) -> Option<T> {
        let p = if self.parameters.is_null() {
            json!({})
        } else {
            self.parameters.clone()
        };
        serde_json::from_value(p).ok()
    }
}

/// A server message: `output` for `command`, with the request's `id`.
pub fn message(command: &str, id: Option<&Value>, output: &Value) -> String {
    envelope(command, id, &output.to_string())
}

/// A server message around an output already serialized (`output`, JSON):
/// an output sent to many is serialized once.
pub fn envelope(command: &str, id: Option<&Value>, output: &str) -> String {
    let command = Value::from(command).to_string();
    let id = id.map_or_else(String::new, |id| format!(",\"id\":{id}"));
    format!("{{\"command\":{command}{id},\"output\":{output}}}")
}

/// An output of just a description.
pub fn described(description: &str) -> Value {
    json!({ "description": description })
}

/// `login` and `register`'s parameters.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Credentials {
    /// The username.
    pub username: String,
    /// The password.
    pub password: String,
    /// The email (register only; optional).
    #[serde(default)]
    pub email: Option<String>,
}

/// Parameters naming only a game.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct GameOnly {
    /// The game.
    pub game_id: i64,
}

/// `getHistory` and `getChat`: a page of a game's lines.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Page {
    /// The game.
    pub game_id: i64,
    /// The first line's index (from 0).
    pub from: usize,
}

/// `sendChat`.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Chat {
    /// The game.
    pub game_id: i64,
    /// The message.
    pub message: String,
}

/// `createGame`.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CreateGame {
    /// The game's name.
    pub game_name: String,
    /// The creator's colour.
    pub color: String,
    /// The board's key (default `usa`).
    #[serde(default)]
    pub board: Option<String>,
    /// Whether players may ask the coach during the game (default: no).
    #[serde(default)]
    pub coach: bool,
    /// A real-time game: each turn's limit in seconds (default: untimed).
    #[serde(default)]
    pub turn_seconds: Option<u32>,
    /// A turn-based game (default: no).
    #[serde(default)]
    pub turn_based: bool,
    /// A turn-based game's limit for each turn, in hours (default 24).
    #[serde(default)]
    pub turn_hours: Option<u32>,
}

/// `joinGame`.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct JoinGame {
    /// The game.
    pub game_id: i64,
    /// The colour chosen.
    pub color: String,
}

/// `addAI`.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct AddAi {
    /// The game.
    pub game_id: i64,
    /// `easy` or `hard`.
    pub difficulty: String,
}

/// `buyRoute`.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct BuyRoute {
    /// The game.
    pub game_id: i64,
    /// The track, numbered over every route's tracks.
    pub route_index: i64,
    /// The colour of the cards paid (`wild` with wilds only).
    pub train_color: String,
    /// Wilds paid.
    pub number_of_wilds: i64,
}

/// `drawTrainCard`.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct DrawTrainCard {
    /// The game.
    pub game_id: i64,
    /// 0–4 a face-up card, 5 the deck.
    pub card_location: i64,
}

/// `selectDestinations`.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SelectDestinations {
    /// The game.
    pub game_id: i64,
    /// Indexes into the offer.
    pub destinations_selected: Vec<i64>,
}

/// `payTunnel`: the tunnel's extra cards, as one of the options the model
/// lists (`tunnel.options`).
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PayTunnel {
    /// The game.
    pub game_id: i64,
    /// Wilds among the extra cards (the rest are of the colour paid).
    pub number_of_wilds: i64,
}

/// `buildStation`.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct BuildStation {
    /// The game.
    pub game_id: i64,
    /// The city's name, as the board names it.
    pub city: String,
    /// The colour of the cards paid (`wild` with wilds only).
    pub train_color: String,
    /// Wilds paid.
    pub number_of_wilds: i64,
}

/// `getPlayer`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GetPlayer {
    /// A username, or a bot's rating name (`bot:greedy`).
    pub name: String,
}

/// `loadGameState`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LoadGame {
    /// A file name in the saves folder.
    pub path: String,
}

/// `revokeSession`.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct RevokeSession {
    /// The session's id, as `listSessions` gives it.
    pub session_id: String,
}

/// Every command of the protocol, by the name a request gives it: the one
/// place a command's name is read. A name not listed here is refused as
/// [`description::UNKNOWN_COMMAND`] before anything else is looked at.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Name {
    /// `login`.
    Login,
    /// `register`.
    Register,
    /// `logout`.
    Logout,
    /// `sendChat`.
    SendChat,
    /// `updateJoinableGames`.
    UpdateJoinableGames,
    /// `updateUserGames`.
    UpdateUserGames,
    /// `createGame`.
    CreateGame,
    /// `joinGame`.
    JoinGame,
    /// `leaveGame`.
    LeaveGame,
    /// `startGame`.
    StartGame,
    /// `addAI`.
    AddAi,
    /// `sendClientModelInformation`.
    Model,
    /// `buyRoute`.
    BuyRoute,
    /// `drawTrainCard`.
    DrawTrainCard,
    /// `getDestinations`.
    GetDestinations,
    /// `selectDestinations`.
    SelectDestinations,
    /// `passTurn`.
    PassTurn,
    /// `payTunnel`.
    PayTunnel,
    /// `giveUpTunnel`.
    GiveUpTunnel,
    /// `buildStation`.
    BuildStation,
    /// `saveGameState`.
    SaveGameState,
    /// `loadGameState`.
    LoadGameState,
    /// `getCoach`.
    GetCoach,
    /// `getReview`.
    GetReview,
    /// `getReplay`.
    GetReplay,
    /// `listSessions`.
    ListSessions,
    /// `revokeSession`.
    RevokeSession,
    /// `revokeOtherSessions`.
    RevokeOtherSessions,
    /// `getHistory`.
    GetHistory,
    /// `getChat`.
    GetChat,
    /// `watchGame`.
    WatchGame,
    /// `watchableGames`.
    WatchableGames,
    /// `rematch`.
    Rematch,
    /// `getPlayer`.
    GetPlayer,
    /// `getRatings`.
    GetRatings,
}

impl Name {
    /// Every command with its name on the wire.
    const ALL: [(Name, &'static str); 35] = [
        (Name::Login, "login"),
        (Name::Register, "register"),
        (Name::Logout, "logout"),
        (Name::SendChat, "sendChat"),
        (Name::UpdateJoinableGames, "updateJoinableGames"),
        (Name::UpdateUserGames, "updateUserGames"),
        (Name::CreateGame, "createGame"),
        (Name::JoinGame, "joinGame"),
        (Name::LeaveGame, "leaveGame"),
        (Name::StartGame, "startGame"),
        (Name::AddAi, "addAI"),
        (Name::Model, "sendClientModelInformation"),
        (Name::BuyRoute, "buyRoute"),
        (Name::DrawTrainCard, "drawTrainCard"),
        (Name::GetDestinations, "getDestinations"),
        (Name::SelectDestinations, "selectDestinations"),
        (Name::PassTurn, "passTurn"),
        (Name::PayTunnel, "payTunnel"),
        (Name::GiveUpTunnel, "giveUpTunnel"),
        (Name::BuildStation, "buildStation"),
        (Name::SaveGameState, "saveGameState"),
        (Name::LoadGameState, "loadGameState"),
        (Name::GetCoach, "getCoach"),
        (Name::GetReview, "getReview"),
        (Name::GetReplay, "getReplay"),
        (Name::ListSessions, "listSessions"),
        (Name::RevokeSession, "revokeSession"),
        (Name::RevokeOtherSessions, "revokeOtherSessions"),
        (Name::GetHistory, "getHistory"),
        (Name::GetChat, "getChat"),
        (Name::WatchGame, "watchGame"),
        (Name::WatchableGames, "watchableGames"),
        (Name::Rematch, "rematch"),
        (Name::GetPlayer, "getPlayer"),
        (Name::GetRatings, "getRatings"),
    ];

    /// The command a request names, or `None` for one no one knows.
    pub fn parse(name: &str) -> Option<Name> {
        Name::ALL.iter().find(|(_, n)| *n == name).map(|&(c, _)| c)
    }

    /// Its name on the wire (`addAI`).
    pub fn as_str(self) -> &'static str {
        Name::ALL
            .iter()
            .find(|(c, _)| *c == self)
            .map_or("", |&(_, n)| n)
    }

    /// A move of the game: the commands the rules engine decides.
    pub fn is_move(self) -> bool {
        matches!(
            self,
            Name::BuyRoute
                | Name::DrawTrainCard
                | Name::GetDestinations
                | Name::SelectDestinations
                | Name::PassTurn
                | Name::PayTunnel
                | Name::GiveUpTunnel
                | Name::BuildStation
        )
    }
}

/// A command with its parameters read into their types: what every handler
/// takes, so that none reads a name or a raw parameter again.
#[derive(Debug)]
pub enum Command {
    /// `login`.
    Login(Credentials),
    /// `register`.
    Register(Credentials),
    /// `logout`.
    Logout,
    /// `sendChat`.
    SendChat(Chat),
    /// `updateJoinableGames`.
    UpdateJoinableGames,
    /// `updateUserGames`.
    UpdateUserGames,
    /// `createGame`.
    CreateGame(CreateGame),
    /// `joinGame`.
    JoinGame(JoinGame),
    /// `leaveGame`.
    LeaveGame(GameOnly),
    /// `startGame`.
    StartGame(GameOnly),
    /// `addAI`.
    AddAi(AddAi),
    /// `sendClientModelInformation`.
    Model(GameOnly),
    /// A move: `buyRoute`, `drawTrainCard`, `getDestinations`,
    /// `selectDestinations`, `passTurn`, `payTunnel`, `giveUpTunnel` or
    /// `buildStation`.
    Move(MoveCommand),
    /// `saveGameState`.
    SaveGameState(GameOnly),
    /// `loadGameState`.
    LoadGameState(LoadGame),
    /// `getCoach`.
    GetCoach(GameOnly),
    /// `getReview`.
    GetReview(GameOnly),
    /// `getReplay`.
    GetReplay(GameOnly),
    /// `listSessions`.
    ListSessions,
    /// `revokeSession`.
    RevokeSession(RevokeSession),
    /// `revokeOtherSessions`.
    RevokeOtherSessions,
    /// `getHistory`.
    GetHistory(Page),
    /// `getChat`.
    GetChat(Page),
    /// `watchGame`.
    WatchGame(GameOnly),
    /// `watchableGames`.
    WatchableGames,
    /// `rematch`.
    Rematch(GameOnly),
    /// `getPlayer`.
    GetPlayer(GetPlayer),
    /// `getRatings`.
    GetRatings,
}

/// A move's command, with its game.
#[derive(Debug)]
pub enum MoveCommand {
    /// `buyRoute`.
    BuyRoute(BuyRoute),
    /// `drawTrainCard`.
    DrawTrainCard(DrawTrainCard),
    /// `getDestinations`.
    GetDestinations(GameOnly),
    /// `selectDestinations`.
    SelectDestinations(SelectDestinations),
    /// `passTurn`.
    PassTurn(GameOnly),
    /// `payTunnel`.
    PayTunnel(PayTunnel),
    /// `giveUpTunnel`.
    GiveUpTunnel(GameOnly),
    /// `buildStation`.
    BuildStation(BuildStation),
}

impl MoveCommand {
    /// The game the move is in.
    pub fn game_id(&self) -> i64 {
        match self {
            MoveCommand::BuyRoute(p) => p.game_id,
            MoveCommand::DrawTrainCard(p) => p.game_id,
            MoveCommand::SelectDestinations(p) => p.game_id,
            MoveCommand::PayTunnel(p) => p.game_id,
            MoveCommand::BuildStation(p) => p.game_id,
            MoveCommand::GetDestinations(p)
            | MoveCommand::PassTurn(p)
            | MoveCommand::GiveUpTunnel(p) => p.game_id,
        }
    }

    /// Its name on the wire.
    pub fn name(&self) -> Name {
        match self {
            MoveCommand::BuyRoute(_) => Name::BuyRoute,
            MoveCommand::DrawTrainCard(_) => Name::DrawTrainCard,
            MoveCommand::GetDestinations(_) => Name::GetDestinations,
            MoveCommand::SelectDestinations(_) => Name::SelectDestinations,
            MoveCommand::PassTurn(_) => Name::PassTurn,
            MoveCommand::PayTunnel(_) => Name::PayTunnel,
            MoveCommand::GiveUpTunnel(_) => Name::GiveUpTunnel,
            MoveCommand::BuildStation(_) => Name::BuildStation,
        }
    }
}

impl Command {
    /// The command `name` with the request's parameters read, or the answer
    /// refusing them: [`description::INVALID_INPUT`] (for `loadGameState`,
    /// with its reason).
    pub fn parse(name: Name, req: &Request) -> Result<Command, Value> {
        fn read<T: DeserializeOwned>(req: &Request) -> Result<T, Value> {
            req.params()
                .ok_or_else(|| described(description::INVALID_INPUT))
        }
        Ok(match name {
            Name::Login => Command::Login(read(req)?),
            Name::Register => Command::Register(read(req)?),
            Name::Logout => Command::Logout,
            Name::SendChat => Command::SendChat(read(req)?),
            Name::UpdateJoinableGames => Command::UpdateJoinableGames,
            Name::UpdateUserGames => Command::UpdateUserGames,
            Name::CreateGame => Command::CreateGame(read(req)?),
            Name::JoinGame => Command::JoinGame(read(req)?),
            Name::LeaveGame => Command::LeaveGame(read(req)?),
            Name::StartGame => Command::StartGame(read(req)?),
            Name::AddAi => Command::AddAi(read(req)?),
            Name::Model => Command::Model(read(req)?),
            Name::BuyRoute => Command::Move(MoveCommand::BuyRoute(read(req)?)),
            Name::DrawTrainCard => Command::Move(MoveCommand::DrawTrainCard(read(req)?)),
            Name::GetDestinations => Command::Move(MoveCommand::GetDestinations(read(req)?)),
            Name::SelectDestinations => {
                Command::Move(MoveCommand::SelectDestinations(read(req)?))
            }
            Name::PassTurn => Command::Move(MoveCommand::PassTurn(read(req)?)),
            Name::PayTunnel => Command::Move(MoveCommand::PayTunnel(read(req)?)),
            Name::GiveUpTunnel => Command::Move(MoveCommand::GiveUpTunnel(read(req)?)),
            Name::BuildStation => Command::Move(MoveCommand::BuildStation(read(req)?)),
            Name::SaveGameState => Command::SaveGameState(read(req)?),
            Name::LoadGameState => Command::LoadGameState(req.params().ok_or_else(|| {
                json!({ "status": "error", "description": description::INVALID_INPUT, "reason": "path is a file name in the saves folder" })
            })?),
            Name::GetCoach => Command::GetCoach(read(req)?),
            Name::GetReview => Command::GetReview(read(req)?),
            Name::GetReplay => Command::GetReplay(read(req)?),
            Name::ListSessions => Command::ListSessions,
            Name::RevokeSession => Command::RevokeSession(read(req)?),
            Name::RevokeOtherSessions => Command::RevokeOtherSessions,
            Name::GetHistory => Command::GetHistory(read(req)?),
            Name::GetChat => Command::GetChat(read(req)?),
            Name::WatchGame => Command::WatchGame(read(req)?),
            Name::WatchableGames => Command::WatchableGames,
            Name::Rematch => Command::Rematch(read(req)?),
            Name::GetPlayer => Command::GetPlayer(read(req)?),
            Name::GetRatings => Command::GetRatings,
        })
    }

    /// The game the command names, if any.
    pub fn game_id(&self) -> Option<i64> {
        match self {
            Command::SendChat(p) => Some(p.game_id),
            Command::JoinGame(p) => Some(p.game_id),
            Command::AddAi(p) => Some(p.game_id),
            Command::Move(m) => Some(m.game_id()),
            Command::LeaveGame(p)
            | Command::StartGame(p)
            | Command::Model(p)
            | Command::SaveGameState(p)
            | Command::GetCoach(p)
            | Command::GetReview(p)
            | Command::GetReplay(p)
            | Command::WatchGame(p)
            | Command::Rematch(p) => Some(p.game_id),
            Command::GetHistory(p) | Command::GetChat(p) => Some(p.game_id),
            Command::Login(_)
            | Command::Register(_)
            | Command::Logout
            | Command::UpdateJoinableGames
            | Command::UpdateUserGames
            | Command::CreateGame(_)
            | Command::LoadGameState(_)
            | Command::ListSessions
            | Command::RevokeSession(_)
            | Command::RevokeOtherSessions
            | Command::WatchableGames
            | Command::GetPlayer(_)
            | Command::GetRatings => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requests_and_messages() {
        let r = Request::parse(
            r#"{"command":"login","parameters":{"username":"a","password":"b"},"id":3}"#,
        )
        .unwrap();
        let c: Credentials = r.params().unwrap();
        assert_eq!(
            (c.username.as_str(), c.password.as_str(), c.email),
            ("a", "b", None)
        );
        assert_eq!(
            message("login", r.id.as_ref(), &described("success")),
            r#"{"command":"login","id":3,"output":{"description":"success"}}"#
        );
        let r = Request::parse(r#"{"command":"logout"}"#).unwrap();
        assert!(r.params::<GameOnly>().is_none());
        assert!(Request::parse("not json").is_none());
        assert!(Request::parse(r#"{"command":"x","parameters":[1]}"#).is_none());
        assert!(Request::parse(r#"{"command":"x","id":{"a":1}}"#).is_none());
        assert!(Request::parse(r#"{"command":"x","extra":1}"#).is_none());
        assert_eq!(
            Request::salvage(r#"{"command":"x","parameters":"y","id":4}"#),
            (Some("x".to_string()), Some(json!(4)))
        );
        assert_eq!(Request::salvage("[1]"), (None, None));
        let r = Request::parse(r#"{"command":"buyRoute","parameters":{"gameId":1,"routeIndex":2,"trainColor":"red","numberOfWilds":0}}"#).unwrap();
        let b: BuyRoute = r.params().unwrap();
        assert_eq!((b.game_id, b.route_index, b.number_of_wilds), (1, 2, 0));
    }

    #[test]
    fn names_and_commands() {
        for (name, wire) in Name::ALL {
            assert_eq!(Name::parse(wire), Some(name));
            assert_eq!(name.as_str(), wire);
        }
        assert_eq!(Name::parse("buyroute"), None, "names are case-sensitive");
        assert_eq!(Name::parse("hack"), None);
        let r = Request::parse(
            r#"{"command":"drawTrainCard","parameters":{"gameId":4,"cardLocation":5}}"#,
        )
        .unwrap();
        let c = Command::parse(Name::DrawTrainCard, &r).unwrap();
        assert_eq!(c.game_id(), Some(4));
        assert!(matches!(
            c,
            Command::Move(MoveCommand::DrawTrainCard(DrawTrainCard {
                card_location: 5,
                ..
            }))
        ));
        // Parameters of another command's shape are refused.
        let refused = Command::parse(Name::JoinGame, &r).unwrap_err();
        assert_eq!(refused, described(description::INVALID_INPUT));
        let r = Request::parse(r#"{"command":"loadGameState","parameters":{"file":"x"}}"#).unwrap();
        let refused = Command::parse(Name::LoadGameState, &r).unwrap_err();
        assert_eq!(refused["status"], "error");
        assert!(matches!(
            Command::parse(
                Name::Logout,
                &Request::parse(r#"{"command":"logout"}"#).unwrap()
            ),
            Ok(Command::Logout)
        ));
    }
}
