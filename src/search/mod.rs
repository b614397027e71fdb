//! Search and bots, generic over [`crate::game::Game`].
